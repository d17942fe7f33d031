// Original file: common/v1/common.proto

import type { Long } from '@grpc/proto-loader';

export interface Asset {
  'id'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'conversation_id'?: (string);
  'message_id'?: (string);
  'name'?: (string);
  'size_bytes'?: (number | string | Long);
  'content_type'?: (string);
  'status'?: (string);
  'preview_kind'?: (string);
  '_message_id'?: "message_id";
  '_preview_kind'?: "preview_kind";
}

export interface Asset__Output {
  'id': (string);
  'created_at': (string);
  'updated_at': (string);
  'conversation_id': (string);
  'message_id'?: (string);
  'name': (string);
  'size_bytes': (number);
  'content_type': (string);
  'status': (string);
  'preview_kind'?: (string);
  '_message_id'?: "message_id";
  '_preview_kind'?: "preview_kind";
}
