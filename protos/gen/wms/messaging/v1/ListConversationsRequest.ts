// Original file: messaging/v1/messaging.proto


export interface ListConversationsRequest {
  'kind'?: (string);
  'unread'?: (boolean);
  'cursor'?: (string);
  'limit'?: (number);
  '_kind'?: "kind";
  '_cursor'?: "cursor";
}

export interface ListConversationsRequest__Output {
  'kind'?: (string);
  'unread': (boolean);
  'cursor'?: (string);
  'limit': (number);
  '_kind'?: "kind";
  '_cursor'?: "cursor";
}
