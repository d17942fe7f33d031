// Original file: workspace/v1/workspace.proto


export interface AddWorkspaceUserRequest {
  'email'?: (string);
  'role'?: (string);
  '_role'?: "role";
}

export interface AddWorkspaceUserRequest__Output {
  'email': (string);
  'role'?: (string);
  '_role'?: "role";
}
