// Original file: messaging/v1/messaging.proto


export interface UpdateThreadSubscriptionRequest {
  'root_id'?: (string);
  'following'?: (boolean);
}

export interface UpdateThreadSubscriptionRequest__Output {
  'root_id': (string);
  'following': (boolean);
}
