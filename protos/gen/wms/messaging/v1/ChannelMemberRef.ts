// Original file: messaging/v1/messaging.proto


export interface ChannelMemberRef {
  'channel_id'?: (string);
  'actor_id'?: (string);
}

export interface ChannelMemberRef__Output {
  'channel_id': (string);
  'actor_id': (string);
}
