// Original file: messaging/v1/messaging.proto


export interface Channel {
  'id'?: (string);
  'workspace_id'?: (string);
  'name'?: (string);
  'topic'?: (string);
  'created_by_actor_id'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_topic'?: "topic";
}

export interface Channel__Output {
  'id': (string);
  'workspace_id': (string);
  'name': (string);
  'topic'?: (string);
  'created_by_actor_id': (string);
  'created_at': (string);
  'updated_at': (string);
  '_topic'?: "topic";
}
