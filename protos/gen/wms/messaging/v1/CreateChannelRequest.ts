// Original file: messaging/v1/messaging.proto


export interface CreateChannelRequest {
  'name'?: (string);
  'topic'?: (string);
  'kind'?: (string);
  'member_actor_ids'?: (string)[];
  '_topic'?: "topic";
  '_kind'?: "kind";
}

export interface CreateChannelRequest__Output {
  'name': (string);
  'topic'?: (string);
  'kind'?: (string);
  'member_actor_ids': (string)[];
  '_topic'?: "topic";
  '_kind'?: "kind";
}
