// Original file: identity/v1/identity.proto


export interface VerifyEmailRequest {
  'token'?: (string);
}

export interface VerifyEmailRequest__Output {
  'token': (string);
}
