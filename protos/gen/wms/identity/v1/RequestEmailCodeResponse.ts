// Original file: identity/v1/identity.proto


export interface RequestEmailCodeResponse {
  'email'?: (string);
  'expires_at'?: (string);
}

export interface RequestEmailCodeResponse__Output {
  'email': (string);
  'expires_at': (string);
}
