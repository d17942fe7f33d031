// Original file: messaging/v1/messaging.proto


export interface ReadState {
  'conversation_id'?: (string);
  'thread_root_id'?: (string);
  'last_read_message_id'?: (string);
  'last_read_at'?: (string);
  'unread_count'?: (number);
  'mention_count'?: (number);
  'following'?: (boolean);
  'updated_at'?: (string);
  '_thread_root_id'?: "thread_root_id";
  '_last_read_message_id'?: "last_read_message_id";
  '_last_read_at'?: "last_read_at";
  '_following'?: "following";
  '_updated_at'?: "updated_at";
}

export interface ReadState__Output {
  'conversation_id': (string);
  'thread_root_id'?: (string);
  'last_read_message_id'?: (string);
  'last_read_at'?: (string);
  'unread_count': (number);
  'mention_count': (number);
  'following'?: (boolean);
  'updated_at'?: (string);
  '_thread_root_id'?: "thread_root_id";
  '_last_read_message_id'?: "last_read_message_id";
  '_last_read_at'?: "last_read_at";
  '_following'?: "following";
  '_updated_at'?: "updated_at";
}
