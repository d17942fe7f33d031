// Original file: workspace/v1/workspace.proto


export interface Actor {
  'id'?: (string);
  'workspace_id'?: (string);
  'kind'?: (string);
  'user_id'?: (string);
  'display_name'?: (string);
  'title'?: (string);
  'avatar_id'?: (string);
  'managed_by_admins'?: (boolean);
  'deactivated_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_user_id'?: "user_id";
  '_title'?: "title";
  '_avatar_id'?: "avatar_id";
  '_deactivated_at'?: "deactivated_at";
}

export interface Actor__Output {
  'id': (string);
  'workspace_id': (string);
  'kind': (string);
  'user_id'?: (string);
  'display_name': (string);
  'title'?: (string);
  'avatar_id'?: (string);
  'managed_by_admins': (boolean);
  'deactivated_at'?: (string);
  'created_at': (string);
  'updated_at': (string);
  '_user_id'?: "user_id";
  '_title'?: "title";
  '_avatar_id'?: "avatar_id";
  '_deactivated_at'?: "deactivated_at";
}
