// Original file: workspace/v1/workspace.proto


export interface Invitation {
  'id'?: (string);
  'workspace_id'?: (string);
  'email'?: (string);
  'role'?: (string);
  'status'?: (string);
  'invited_by_actor_id'?: (string);
  'workspace_user_id'?: (string);
  'expires_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_workspace_user_id'?: "workspace_user_id";
}

export interface Invitation__Output {
  'id': (string);
  'workspace_id': (string);
  'email': (string);
  'role': (string);
  'status': (string);
  'invited_by_actor_id': (string);
  'workspace_user_id'?: (string);
  'expires_at': (string);
  'created_at': (string);
  'updated_at': (string);
  '_workspace_user_id'?: "workspace_user_id";
}
