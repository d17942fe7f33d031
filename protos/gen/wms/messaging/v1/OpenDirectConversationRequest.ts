// Original file: messaging/v1/messaging.proto


export interface OpenDirectConversationRequest {
  'actor_ids'?: (string)[];
}

export interface OpenDirectConversationRequest__Output {
  'actor_ids': (string)[];
}
