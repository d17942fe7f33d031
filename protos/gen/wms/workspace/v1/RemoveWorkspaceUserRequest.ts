// Original file: workspace/v1/workspace.proto


export interface RemoveWorkspaceUserRequest {
  'workspace_user_id'?: (string);
}

export interface RemoveWorkspaceUserRequest__Output {
  'workspace_user_id': (string);
}
