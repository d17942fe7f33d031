// Original file: workspace/v1/workspace.proto


export interface Workspace {
  'id'?: (string);
  'name'?: (string);
  'slug'?: (string);
  'avatar_id'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_avatar_id'?: "avatar_id";
}

export interface Workspace__Output {
  'id': (string);
  'name': (string);
  'slug': (string);
  'avatar_id'?: (string);
  'created_at': (string);
  'updated_at': (string);
  '_avatar_id'?: "avatar_id";
}
