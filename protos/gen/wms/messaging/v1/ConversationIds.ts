// Original file: messaging/v1/messaging.proto


export interface ConversationIds {
  'ids'?: (string)[];
}

export interface ConversationIds__Output {
  'ids': (string)[];
}
