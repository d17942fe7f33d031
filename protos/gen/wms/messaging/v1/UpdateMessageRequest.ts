// Original file: messaging/v1/messaging.proto


export interface UpdateMessageRequest {
  'conversation_id'?: (string);
  'message_id'?: (string);
  'body_text'?: (string);
}

export interface UpdateMessageRequest__Output {
  'conversation_id': (string);
  'message_id': (string);
  'body_text': (string);
}
