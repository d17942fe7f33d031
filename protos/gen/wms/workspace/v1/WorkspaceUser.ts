// Original file: workspace/v1/workspace.proto

import type { UserSummary as _wms_workspace_v1_UserSummary, UserSummary__Output as _wms_workspace_v1_UserSummary__Output } from '../../../wms/workspace/v1/UserSummary.ts';

export interface WorkspaceUser {
  'id'?: (string);
  'workspace_id'?: (string);
  'user_id'?: (string);
  'actor_id'?: (string);
  'role'?: (string);
  'accepted_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'user'?: (_wms_workspace_v1_UserSummary | null);
  '_accepted_at'?: "accepted_at";
}

export interface WorkspaceUser__Output {
  'id': (string);
  'workspace_id': (string);
  'user_id': (string);
  'actor_id': (string);
  'role': (string);
  'accepted_at'?: (string);
  'created_at': (string);
  'updated_at': (string);
  'user': (_wms_workspace_v1_UserSummary__Output | null);
  '_accepted_at'?: "accepted_at";
}
