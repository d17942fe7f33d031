// Original file: workspace/v1/workspace.proto

import type { Token as _wms_workspace_v1_Token, Token__Output as _wms_workspace_v1_Token__Output } from '../../../wms/workspace/v1/Token.ts';

export interface ResolveTokenResponse {
  'token'?: (_wms_workspace_v1_Token | null);
  '_token'?: "token";
}

export interface ResolveTokenResponse__Output {
  'token'?: (_wms_workspace_v1_Token__Output | null);
  '_token'?: "token";
}
