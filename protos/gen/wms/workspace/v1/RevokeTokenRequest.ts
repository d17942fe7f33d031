// Original file: workspace/v1/workspace.proto


export interface RevokeTokenRequest {
  'token_id'?: (string);
}

export interface RevokeTokenRequest__Output {
  'token_id': (string);
}
