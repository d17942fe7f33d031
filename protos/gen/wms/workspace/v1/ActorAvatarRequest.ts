// Original file: workspace/v1/workspace.proto


export interface ActorAvatarRequest {
  'actor_id'?: (string);
}

export interface ActorAvatarRequest__Output {
  'actor_id': (string);
}
