// Original file: messaging/v1/messaging.proto


export interface ChannelMember {
  'channel_id'?: (string);
  'actor_id'?: (string);
  'added_by_actor_id'?: (string);
  'joined_at'?: (string);
  '_added_by_actor_id'?: "added_by_actor_id";
}

export interface ChannelMember__Output {
  'channel_id': (string);
  'actor_id': (string);
  'added_by_actor_id'?: (string);
  'joined_at': (string);
  '_added_by_actor_id'?: "added_by_actor_id";
}
