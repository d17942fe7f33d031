// Original file: messaging/v1/messaging.proto


export interface ListMessagesRequest {
  'conversation_id'?: (string);
  'parent_message_id'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
  '_parent_message_id'?: "parent_message_id";
  '_cursor'?: "cursor";
}

export interface ListMessagesRequest__Output {
  'conversation_id': (string);
  'parent_message_id'?: (string);
  'cursor'?: (string);
  'limit': (number);
  '_parent_message_id'?: "parent_message_id";
  '_cursor'?: "cursor";
}
