// Original file: common/v1/common.proto

import type { Long } from '@grpc/proto-loader';

export interface Download {
  'url'?: (string);
  'expires_at'?: (string);
  'name'?: (string);
  'content_type'?: (string);
  'size_bytes'?: (number | string | Long);
}

export interface Download__Output {
  'url': (string);
  'expires_at': (string);
  'name': (string);
  'content_type': (string);
  'size_bytes': (number);
}
