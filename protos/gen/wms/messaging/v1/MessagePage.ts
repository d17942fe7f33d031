// Original file: messaging/v1/messaging.proto

import type { Message as _wms_messaging_v1_Message, Message__Output as _wms_messaging_v1_Message__Output } from '../../../wms/messaging/v1/Message.ts';

export interface MessagePage {
  'items'?: (_wms_messaging_v1_Message)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}

export interface MessagePage__Output {
  'items': (_wms_messaging_v1_Message__Output)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}
