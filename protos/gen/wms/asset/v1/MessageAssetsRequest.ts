// Original file: asset/v1/asset.proto


export interface MessageAssetsRequest {
  'message_id'?: (string);
}

export interface MessageAssetsRequest__Output {
  'message_id': (string);
}
