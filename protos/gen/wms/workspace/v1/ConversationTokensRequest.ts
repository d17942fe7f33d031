// Original file: workspace/v1/workspace.proto


export interface ConversationTokensRequest {
  'conversation_id'?: (string);
}

export interface ConversationTokensRequest__Output {
  'conversation_id': (string);
}
