// Original file: messaging/v1/messaging.proto


export interface CreateMessageRequest {
  'conversation_id'?: (string);
  'body_text'?: (string);
  'parent_message_id'?: (string);
  'asset_ids'?: (string)[];
  'mentioned_actor_ids'?: (string)[];
  'loading'?: (boolean);
  'client_message_id'?: (string);
  '_parent_message_id'?: "parent_message_id";
  '_client_message_id'?: "client_message_id";
}

export interface CreateMessageRequest__Output {
  'conversation_id': (string);
  'body_text': (string);
  'parent_message_id'?: (string);
  'asset_ids': (string)[];
  'mentioned_actor_ids': (string)[];
  'loading': (boolean);
  'client_message_id'?: (string);
  '_parent_message_id'?: "parent_message_id";
  '_client_message_id'?: "client_message_id";
}
