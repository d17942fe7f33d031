// Original file: workspace/v1/workspace.proto

import type { NullableString as _wms_common_v1_NullableString, NullableString__Output as _wms_common_v1_NullableString__Output } from '../../../wms/common/v1/NullableString.ts';

export interface UpdateActorRequest {
  'actor_id'?: (string);
  'display_name'?: (string);
  'title'?: (_wms_common_v1_NullableString | null);
  '_display_name'?: "display_name";
}

export interface UpdateActorRequest__Output {
  'actor_id': (string);
  'display_name'?: (string);
  'title': (_wms_common_v1_NullableString__Output | null);
  '_display_name'?: "display_name";
}
