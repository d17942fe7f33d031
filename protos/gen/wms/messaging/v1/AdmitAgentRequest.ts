// Original file: messaging/v1/messaging.proto


export interface AdmitAgentRequest {
  'conversation_id'?: (string);
  'actor_id'?: (string);
}

export interface AdmitAgentRequest__Output {
  'conversation_id': (string);
  'actor_id': (string);
}
