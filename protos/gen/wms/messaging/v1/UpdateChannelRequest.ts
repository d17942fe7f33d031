// Original file: messaging/v1/messaging.proto


export interface UpdateChannelRequest {
  'channel_id'?: (string);
  'name'?: (string);
  'topic'?: (string);
  'clear_topic'?: (boolean);
  '_name'?: "name";
  '_topic'?: "topic";
}

export interface UpdateChannelRequest__Output {
  'channel_id': (string);
  'name'?: (string);
  'topic'?: (string);
  'clear_topic': (boolean);
  '_name'?: "name";
  '_topic'?: "topic";
}
