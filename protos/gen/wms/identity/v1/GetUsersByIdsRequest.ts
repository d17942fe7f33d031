// Original file: identity/v1/identity.proto


export interface GetUsersByIdsRequest {
  'ids'?: (string)[];
}

export interface GetUsersByIdsRequest__Output {
  'ids': (string)[];
}
