// Original file: asset/v1/asset.proto


export interface AttachAssetsRequest {
  'conversation_id'?: (string);
  'message_id'?: (string);
  'asset_ids'?: (string)[];
}

export interface AttachAssetsRequest__Output {
  'conversation_id': (string);
  'message_id': (string);
  'asset_ids': (string)[];
}
