// Original file: messaging/v1/messaging.proto


export interface ListChannelMembersRequest {
  'channel_id'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
  '_cursor'?: "cursor";
}

export interface ListChannelMembersRequest__Output {
  'channel_id': (string);
  'cursor'?: (string);
  'limit': (number);
  '_cursor'?: "cursor";
}
