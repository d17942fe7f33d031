// Original file: common/v1/common.proto

import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from '../../../wms/common/v1/User.ts';

export interface AuthResponse {
  'access_token'?: (string);
  'user'?: (_wms_common_v1_User | null);
  'expires_at'?: (string);
  '_expires_at'?: "expires_at";
}

export interface AuthResponse__Output {
  'access_token': (string);
  'user': (_wms_common_v1_User__Output | null);
  'expires_at'?: (string);
  '_expires_at'?: "expires_at";
}
