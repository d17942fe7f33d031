// Original file: asset/v1/asset.proto


export interface MessageAssetsRequest {
  'message_ids'?: (string)[];
  'workspace_id'?: (string);
}

export interface MessageAssetsRequest__Output {
  'message_ids': (string)[];
  'workspace_id': (string);
}
