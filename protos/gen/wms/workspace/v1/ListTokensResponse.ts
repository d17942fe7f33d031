// Original file: workspace/v1/workspace.proto

import type { Token as _wms_workspace_v1_Token, Token__Output as _wms_workspace_v1_Token__Output } from '../../../wms/workspace/v1/Token.ts';

export interface ListTokensResponse {
  'tokens'?: (_wms_workspace_v1_Token)[];
}

export interface ListTokensResponse__Output {
  'tokens': (_wms_workspace_v1_Token__Output)[];
}
