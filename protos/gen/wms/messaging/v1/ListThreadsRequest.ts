// Original file: messaging/v1/messaging.proto


export interface ListThreadsRequest {
  'following'?: (boolean);
  'unread'?: (boolean);
  'cursor'?: (string);
  'limit'?: (number);
  '_cursor'?: "cursor";
}

export interface ListThreadsRequest__Output {
  'following': (boolean);
  'unread': (boolean);
  'cursor'?: (string);
  'limit': (number);
  '_cursor'?: "cursor";
}
