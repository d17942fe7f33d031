// Original file: workspace/v1/workspace.proto


export interface CreateInvitationRequest {
  'email'?: (string);
  'role'?: (string);
  '_role'?: "role";
}

export interface CreateInvitationRequest__Output {
  'email': (string);
  'role'?: (string);
  '_role'?: "role";
}
