// Original file: workspace/v1/workspace.proto


export interface ResolveMembershipRequest {
  'workspace_id'?: (string);
  'user_id'?: (string);
}

export interface ResolveMembershipRequest__Output {
  'workspace_id': (string);
  'user_id': (string);
}
