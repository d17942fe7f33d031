// Original file: realtime/v1/realtime.proto


export interface ChannelAuthorization {
  'auth'?: (string);
  'channel_data'?: (string);
  '_channel_data'?: "channel_data";
}

export interface ChannelAuthorization__Output {
  'auth': (string);
  'channel_data'?: (string);
  '_channel_data'?: "channel_data";
}
