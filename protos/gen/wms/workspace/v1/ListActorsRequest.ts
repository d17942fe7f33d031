// Original file: workspace/v1/workspace.proto


export interface ListActorsRequest {
  'q'?: (string);
  '_q'?: "q";
}

export interface ListActorsRequest__Output {
  'q'?: (string);
  '_q'?: "q";
}
