// Original file: workspace/v1/workspace.proto


export interface UserSummary {
  'id'?: (string);
  'email'?: (string);
  'name'?: (string);
}

export interface UserSummary__Output {
  'id': (string);
  'email': (string);
  'name': (string);
}
