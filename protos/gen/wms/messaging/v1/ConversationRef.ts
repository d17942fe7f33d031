// Original file: messaging/v1/messaging.proto


export interface ConversationRef {
  'conversation_id'?: (string);
}

export interface ConversationRef__Output {
  'conversation_id': (string);
}
