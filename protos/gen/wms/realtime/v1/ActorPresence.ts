// Original file: realtime/v1/realtime.proto


export interface ActorPresence {
  'actor_id'?: (string);
  'status'?: (string);
  'since'?: (string);
}

export interface ActorPresence__Output {
  'actor_id': (string);
  'status': (string);
  'since': (string);
}
