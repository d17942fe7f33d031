// Original file: messaging/v1/messaging.proto

import type { SearchHit as _wms_messaging_v1_SearchHit, SearchHit__Output as _wms_messaging_v1_SearchHit__Output } from '../../../wms/messaging/v1/SearchHit.ts';

export interface SearchPage {
  'items'?: (_wms_messaging_v1_SearchHit)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}

export interface SearchPage__Output {
  'items': (_wms_messaging_v1_SearchHit__Output)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}
