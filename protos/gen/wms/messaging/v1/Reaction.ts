// Original file: messaging/v1/messaging.proto


export interface Reaction {
  'emoji'?: (string);
  'actor_ids'?: (string)[];
}

export interface Reaction__Output {
  'emoji': (string);
  'actor_ids': (string)[];
}
