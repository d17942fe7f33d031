// Original file: workspace/v1/workspace.proto


export interface GetActorRequest {
  'actor_id'?: (string);
}

export interface GetActorRequest__Output {
  'actor_id': (string);
}
