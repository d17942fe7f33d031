// Original file: messaging/v1/messaging.proto


export interface GetChannelRequest {
  'channel_id'?: (string);
}

export interface GetChannelRequest__Output {
  'channel_id': (string);
}
