// Original file: messaging/v1/messaging.proto


export interface CreateChannelRequest {
  'name'?: (string);
  'topic'?: (string);
  '_topic'?: "topic";
}

export interface CreateChannelRequest__Output {
  'name': (string);
  'topic'?: (string);
  '_topic'?: "topic";
}
