// Original file: realtime/v1/realtime.proto


export interface AuthorizeChannelRequest {
  'socket_id'?: (string);
  'channel_name'?: (string);
}

export interface AuthorizeChannelRequest__Output {
  'socket_id': (string);
  'channel_name': (string);
}
