// Original file: workspace/v1/workspace.proto

import type { WorkspaceUser as _wms_workspace_v1_WorkspaceUser, WorkspaceUser__Output as _wms_workspace_v1_WorkspaceUser__Output } from '../../../wms/workspace/v1/WorkspaceUser.ts';

export interface ListWorkspaceUsersResponse {
  'workspace_users'?: (_wms_workspace_v1_WorkspaceUser)[];
}

export interface ListWorkspaceUsersResponse__Output {
  'workspace_users': (_wms_workspace_v1_WorkspaceUser__Output)[];
}
