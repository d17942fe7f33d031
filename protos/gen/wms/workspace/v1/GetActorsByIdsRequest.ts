// Original file: workspace/v1/workspace.proto


export interface GetActorsByIdsRequest {
  'ids'?: (string)[];
}

export interface GetActorsByIdsRequest__Output {
  'ids': (string)[];
}
