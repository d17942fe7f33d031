// Original file: common/v1/common.proto


export interface User {
  'id'?: (string);
  'email'?: (string);
  'name'?: (string);
  'email_verified_at'?: (string);
  'pending_email'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_email_verified_at'?: "email_verified_at";
  '_pending_email'?: "pending_email";
}

export interface User__Output {
  'id': (string);
  'email': (string);
  'name': (string);
  'email_verified_at'?: (string);
  'pending_email'?: (string);
  'created_at': (string);
  'updated_at': (string);
  '_email_verified_at'?: "email_verified_at";
  '_pending_email'?: "pending_email";
}
