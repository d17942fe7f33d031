// Original file: workspace/v1/workspace.proto


export interface TransferOwnershipRequest {
  'workspace_user_id'?: (string);
}

export interface TransferOwnershipRequest__Output {
  'workspace_user_id': (string);
}
