// Original file: identity/v1/identity.proto

import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from '../../../wms/common/v1/User.ts';

export interface GetUsersByIdsResponse {
  'users'?: (_wms_common_v1_User)[];
}

export interface GetUsersByIdsResponse__Output {
  'users': (_wms_common_v1_User__Output)[];
}
