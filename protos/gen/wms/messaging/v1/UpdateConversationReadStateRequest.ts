// Original file: messaging/v1/messaging.proto


export interface UpdateConversationReadStateRequest {
  'conversation_id'?: (string);
  'last_read_message_id'?: (string);
}

export interface UpdateConversationReadStateRequest__Output {
  'conversation_id': (string);
  'last_read_message_id': (string);
}
