// Original file: workspace/v1/workspace.proto


export interface RegisterFromInvitationRequest {
  'token'?: (string);
  'name'?: (string);
  'password'?: (string);
}

export interface RegisterFromInvitationRequest__Output {
  'token': (string);
  'name': (string);
  'password': (string);
}
