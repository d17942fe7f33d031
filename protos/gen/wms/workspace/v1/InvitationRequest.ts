// Original file: workspace/v1/workspace.proto


export interface InvitationRequest {
  'invitation_id'?: (string);
}

export interface InvitationRequest__Output {
  'invitation_id': (string);
}
