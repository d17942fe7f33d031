// Original file: workspace/v1/workspace.proto


export interface UpdateWorkspaceRequest {
  'name'?: (string);
  'slug'?: (string);
  '_name'?: "name";
  '_slug'?: "slug";
}

export interface UpdateWorkspaceRequest__Output {
  'name'?: (string);
  'slug'?: (string);
  '_name'?: "name";
  '_slug'?: "slug";
}
