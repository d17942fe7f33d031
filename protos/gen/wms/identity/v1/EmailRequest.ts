// Original file: identity/v1/identity.proto


export interface EmailRequest {
  'email'?: (string);
}

export interface EmailRequest__Output {
  'email': (string);
}
