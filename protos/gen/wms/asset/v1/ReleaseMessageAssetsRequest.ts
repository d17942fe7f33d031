// Original file: asset/v1/asset.proto


export interface ReleaseMessageAssetsRequest {
  'message_id'?: (string);
}

export interface ReleaseMessageAssetsRequest__Output {
  'message_id': (string);
}
