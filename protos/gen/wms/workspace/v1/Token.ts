// Original file: workspace/v1/workspace.proto


export interface Token {
  'id'?: (string);
  'kind'?: (string);
  'workspace_id'?: (string);
  'conversation_id'?: (string);
  'actor_id'?: (string);
  'name'?: (string);
  'token_prefix'?: (string);
  'created_by_actor_id'?: (string);
  'created_at'?: (string);
  'last_used_at'?: (string);
  'revoked_at'?: (string);
  'token'?: (string);
  '_conversation_id'?: "conversation_id";
  '_last_used_at'?: "last_used_at";
  '_revoked_at'?: "revoked_at";
  '_token'?: "token";
}

export interface Token__Output {
  'id': (string);
  'kind': (string);
  'workspace_id': (string);
  'conversation_id'?: (string);
  'actor_id': (string);
  'name': (string);
  'token_prefix': (string);
  'created_by_actor_id': (string);
  'created_at': (string);
  'last_used_at'?: (string);
  'revoked_at'?: (string);
  'token'?: (string);
  '_conversation_id'?: "conversation_id";
  '_last_used_at'?: "last_used_at";
  '_revoked_at'?: "revoked_at";
  '_token'?: "token";
}
