// Original file: workspace/v1/workspace.proto


export interface RecordTokenUseRequest {
  'token_id'?: (string);
}

export interface RecordTokenUseRequest__Output {
  'token_id': (string);
}
