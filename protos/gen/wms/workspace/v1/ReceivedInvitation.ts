// Original file: workspace/v1/workspace.proto

import type { Invitation as _wms_workspace_v1_Invitation, Invitation__Output as _wms_workspace_v1_Invitation__Output } from '../../../wms/workspace/v1/Invitation.ts';

export interface _wms_workspace_v1_ReceivedInvitation_Inviter {
  'display_name'?: (string);
  'avatar_id'?: (string);
  '_avatar_id'?: "avatar_id";
}

export interface _wms_workspace_v1_ReceivedInvitation_Inviter__Output {
  'display_name': (string);
  'avatar_id'?: (string);
  '_avatar_id'?: "avatar_id";
}

export interface _wms_workspace_v1_ReceivedInvitation_WorkspaceSummary {
  'id'?: (string);
  'name'?: (string);
  'slug'?: (string);
  'avatar_id'?: (string);
  '_avatar_id'?: "avatar_id";
}

export interface _wms_workspace_v1_ReceivedInvitation_WorkspaceSummary__Output {
  'id': (string);
  'name': (string);
  'slug': (string);
  'avatar_id'?: (string);
  '_avatar_id'?: "avatar_id";
}

export interface ReceivedInvitation {
  'invitation'?: (_wms_workspace_v1_Invitation | null);
  'workspace'?: (_wms_workspace_v1_ReceivedInvitation_WorkspaceSummary | null);
  'invited_by'?: (_wms_workspace_v1_ReceivedInvitation_Inviter | null);
}

export interface ReceivedInvitation__Output {
  'invitation': (_wms_workspace_v1_Invitation__Output | null);
  'workspace': (_wms_workspace_v1_ReceivedInvitation_WorkspaceSummary__Output | null);
  'invited_by': (_wms_workspace_v1_ReceivedInvitation_Inviter__Output | null);
}
