// Original file: workspace/v1/workspace.proto


export interface InvitationTokenRequest {
  'token'?: (string);
}

export interface InvitationTokenRequest__Output {
  'token': (string);
}
