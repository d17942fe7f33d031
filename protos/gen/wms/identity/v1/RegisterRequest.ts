// Original file: identity/v1/identity.proto


export interface RegisterRequest {
  'email'?: (string);
  'password'?: (string);
  'name'?: (string);
}

export interface RegisterRequest__Output {
  'email': (string);
  'password': (string);
  'name': (string);
}
