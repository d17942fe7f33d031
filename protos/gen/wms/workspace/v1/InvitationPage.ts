// Original file: workspace/v1/workspace.proto

import type { Invitation as _wms_workspace_v1_Invitation, Invitation__Output as _wms_workspace_v1_Invitation__Output } from '../../../wms/workspace/v1/Invitation.ts';

export interface InvitationPage {
  'items'?: (_wms_workspace_v1_Invitation)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}

export interface InvitationPage__Output {
  'items': (_wms_workspace_v1_Invitation__Output)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}
