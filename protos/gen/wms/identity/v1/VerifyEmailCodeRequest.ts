// Original file: identity/v1/identity.proto


export interface VerifyEmailCodeRequest {
  'email'?: (string);
  'code'?: (string);
}

export interface VerifyEmailCodeRequest__Output {
  'email': (string);
  'code': (string);
}
