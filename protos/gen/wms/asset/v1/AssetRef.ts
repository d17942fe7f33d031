// Original file: asset/v1/asset.proto


export interface AssetRef {
  'conversation_id'?: (string);
  'asset_id'?: (string);
}

export interface AssetRef__Output {
  'conversation_id': (string);
  'asset_id': (string);
}
