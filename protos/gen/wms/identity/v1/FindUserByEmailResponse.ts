// Original file: identity/v1/identity.proto

import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from '../../../wms/common/v1/User.ts';

export interface FindUserByEmailResponse {
  'user'?: (_wms_common_v1_User | null);
  '_user'?: "user";
}

export interface FindUserByEmailResponse__Output {
  'user'?: (_wms_common_v1_User__Output | null);
  '_user'?: "user";
}
