// Original file: workspace/v1/workspace.proto

import type { Invitation as _wms_workspace_v1_Invitation, Invitation__Output as _wms_workspace_v1_Invitation__Output } from '../../../wms/workspace/v1/Invitation.ts';

export interface SentInvitation {
  'invitation'?: (_wms_workspace_v1_Invitation | null);
  'created'?: (boolean);
}

export interface SentInvitation__Output {
  'invitation': (_wms_workspace_v1_Invitation__Output | null);
  'created': (boolean);
}
