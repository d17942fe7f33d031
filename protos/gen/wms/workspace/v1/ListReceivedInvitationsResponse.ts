// Original file: workspace/v1/workspace.proto

import type { ReceivedInvitation as _wms_workspace_v1_ReceivedInvitation, ReceivedInvitation__Output as _wms_workspace_v1_ReceivedInvitation__Output } from '../../../wms/workspace/v1/ReceivedInvitation.ts';

export interface ListReceivedInvitationsResponse {
  'invitations'?: (_wms_workspace_v1_ReceivedInvitation)[];
}

export interface ListReceivedInvitationsResponse__Output {
  'invitations': (_wms_workspace_v1_ReceivedInvitation__Output)[];
}
