// Original file: workspace/v1/workspace.proto


export interface CreateTokenRequest {
  'actor_id'?: (string);
  'name'?: (string);
  'conversation_id'?: (string);
}

export interface CreateTokenRequest__Output {
  'actor_id': (string);
  'name': (string);
  'conversation_id': (string);
}
