// Original file: workspace/v1/workspace.proto


export interface GetAvatarRequest {
  'actor_id'?: (string);
  'avatar_id'?: (string);
}

export interface GetAvatarRequest__Output {
  'actor_id': (string);
  'avatar_id': (string);
}
