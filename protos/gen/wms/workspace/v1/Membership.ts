// Original file: workspace/v1/workspace.proto


export interface Membership {
  'workspace_id'?: (string);
  'workspace_user_id'?: (string);
  'actor_id'?: (string);
  'role'?: (string);
}

export interface Membership__Output {
  'workspace_id': (string);
  'workspace_user_id': (string);
  'actor_id': (string);
  'role': (string);
}
