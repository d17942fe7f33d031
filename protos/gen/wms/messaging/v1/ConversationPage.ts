// Original file: messaging/v1/messaging.proto

import type { ConversationSummary as _wms_messaging_v1_ConversationSummary, ConversationSummary__Output as _wms_messaging_v1_ConversationSummary__Output } from '../../../wms/messaging/v1/ConversationSummary.ts';

export interface ConversationPage {
  'items'?: (_wms_messaging_v1_ConversationSummary)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}

export interface ConversationPage__Output {
  'items': (_wms_messaging_v1_ConversationSummary__Output)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}
