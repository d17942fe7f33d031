// Original file: workspace/v1/workspace.proto

import type { Workspace as _wms_workspace_v1_Workspace, Workspace__Output as _wms_workspace_v1_Workspace__Output } from '../../../wms/workspace/v1/Workspace.ts';

export interface ListWorkspacesResponse {
  'workspaces'?: (_wms_workspace_v1_Workspace)[];
}

export interface ListWorkspacesResponse__Output {
  'workspaces': (_wms_workspace_v1_Workspace__Output)[];
}
