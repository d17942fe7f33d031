// Original file: identity/v1/identity.proto


export interface EmailPendingResponse {
  'email'?: (string);
}

export interface EmailPendingResponse__Output {
  'email': (string);
}
