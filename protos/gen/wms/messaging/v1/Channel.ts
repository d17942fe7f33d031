// Original file: messaging/v1/messaging.proto


export interface Channel {
  'id'?: (string);
  'workspace_id'?: (string);
  'name'?: (string);
  'topic'?: (string);
  'created_by_actor_id'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'kind'?: (string);
  'member_count'?: (number);
  'is_member'?: (boolean);
  'participant_actor_ids'?: (string)[];
  'last_message_at'?: (string);
  'archived_at'?: (string);
  '_name'?: "name";
  '_topic'?: "topic";
  '_last_message_at'?: "last_message_at";
  '_archived_at'?: "archived_at";
}

export interface Channel__Output {
  'id': (string);
  'workspace_id': (string);
  'name'?: (string);
  'topic'?: (string);
  'created_by_actor_id': (string);
  'created_at': (string);
  'updated_at': (string);
  'kind': (string);
  'member_count': (number);
  'is_member': (boolean);
  'participant_actor_ids': (string)[];
  'last_message_at'?: (string);
  'archived_at'?: (string);
  '_name'?: "name";
  '_topic'?: "topic";
  '_last_message_at'?: "last_message_at";
  '_archived_at'?: "archived_at";
}
