// Original file: identity/v1/identity.proto


export interface InvitationMailRequest {
  'email'?: (string);
  'workspace_name'?: (string);
  'inviter_name'?: (string);
  'token'?: (string);
}

export interface InvitationMailRequest__Output {
  'email': (string);
  'workspace_name': (string);
  'inviter_name': (string);
  'token': (string);
}
