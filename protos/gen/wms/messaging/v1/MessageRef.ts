// Original file: messaging/v1/messaging.proto


export interface MessageRef {
  'conversation_id'?: (string);
  'message_id'?: (string);
}

export interface MessageRef__Output {
  'conversation_id': (string);
  'message_id': (string);
}
