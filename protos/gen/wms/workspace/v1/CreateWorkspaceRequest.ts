// Original file: workspace/v1/workspace.proto


export interface CreateWorkspaceRequest {
  'name'?: (string);
  'slug'?: (string);
}

export interface CreateWorkspaceRequest__Output {
  'name': (string);
  'slug': (string);
}
