// Original file: asset/v1/asset.proto


export interface GetAssetsByIdsRequest {
  'ids'?: (string)[];
}

export interface GetAssetsByIdsRequest__Output {
  'ids': (string)[];
}
