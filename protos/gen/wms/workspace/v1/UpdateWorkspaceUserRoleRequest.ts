// Original file: workspace/v1/workspace.proto


export interface UpdateWorkspaceUserRoleRequest {
  'workspace_user_id'?: (string);
  'role'?: (string);
}

export interface UpdateWorkspaceUserRoleRequest__Output {
  'workspace_user_id': (string);
  'role': (string);
}
