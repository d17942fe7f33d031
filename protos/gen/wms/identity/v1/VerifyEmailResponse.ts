// Original file: identity/v1/identity.proto

import type { AuthResponse as _wms_common_v1_AuthResponse, AuthResponse__Output as _wms_common_v1_AuthResponse__Output } from '../../../wms/common/v1/AuthResponse.ts';
import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from '../../../wms/common/v1/User.ts';

export interface VerifyEmailResponse {
  'auth'?: (_wms_common_v1_AuthResponse | null);
  'user'?: (_wms_common_v1_User | null);
  '_auth'?: "auth";
}

export interface VerifyEmailResponse__Output {
  'auth'?: (_wms_common_v1_AuthResponse__Output | null);
  'user': (_wms_common_v1_User__Output | null);
  '_auth'?: "auth";
}
