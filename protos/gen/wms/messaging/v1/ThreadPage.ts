// Original file: messaging/v1/messaging.proto

import type { Thread as _wms_messaging_v1_Thread, Thread__Output as _wms_messaging_v1_Thread__Output } from '../../../wms/messaging/v1/Thread.ts';

export interface ThreadPage {
  'items'?: (_wms_messaging_v1_Thread)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}

export interface ThreadPage__Output {
  'items': (_wms_messaging_v1_Thread__Output)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}
