// Original file: asset/v1/asset.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateAssetRequest {
  'conversation_id'?: (string);
  'name'?: (string);
  'content_type'?: (string);
  'size_bytes'?: (number | string | Long);
}

export interface CreateAssetRequest__Output {
  'conversation_id': (string);
  'name': (string);
  'content_type': (string);
  'size_bytes': (number);
}
