// Original file: messaging/v1/messaging.proto


export interface ReactionRequest {
  'conversation_id'?: (string);
  'message_id'?: (string);
  'emoji'?: (string);
}

export interface ReactionRequest__Output {
  'conversation_id': (string);
  'message_id': (string);
  'emoji': (string);
}
