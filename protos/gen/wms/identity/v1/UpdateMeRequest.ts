// Original file: identity/v1/identity.proto


export interface UpdateMeRequest {
  'name'?: (string);
  'email'?: (string);
  '_name'?: "name";
  '_email'?: "email";
}

export interface UpdateMeRequest__Output {
  'name'?: (string);
  'email'?: (string);
  '_name'?: "name";
  '_email'?: "email";
}
