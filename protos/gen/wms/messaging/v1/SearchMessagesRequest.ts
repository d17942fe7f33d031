// Original file: messaging/v1/messaging.proto


export interface SearchMessagesRequest {
  'q'?: (string);
  'conversation_id'?: (string);
  'author_actor_id'?: (string);
  'parent_message_id'?: (string);
  'has'?: (string);
  'after'?: (string);
  'before'?: (string);
  'sort'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
  '_conversation_id'?: "conversation_id";
  '_author_actor_id'?: "author_actor_id";
  '_parent_message_id'?: "parent_message_id";
  '_has'?: "has";
  '_after'?: "after";
  '_before'?: "before";
  '_sort'?: "sort";
  '_cursor'?: "cursor";
}

export interface SearchMessagesRequest__Output {
  'q': (string);
  'conversation_id'?: (string);
  'author_actor_id'?: (string);
  'parent_message_id'?: (string);
  'has'?: (string);
  'after'?: (string);
  'before'?: (string);
  'sort'?: (string);
  'cursor'?: (string);
  'limit': (number);
  '_conversation_id'?: "conversation_id";
  '_author_actor_id'?: "author_actor_id";
  '_parent_message_id'?: "parent_message_id";
  '_has'?: "has";
  '_after'?: "after";
  '_before'?: "before";
  '_sort'?: "sort";
  '_cursor'?: "cursor";
}
