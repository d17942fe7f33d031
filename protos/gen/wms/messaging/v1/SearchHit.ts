// Original file: messaging/v1/messaging.proto

import type { Message as _wms_messaging_v1_Message, Message__Output as _wms_messaging_v1_Message__Output } from '../../../wms/messaging/v1/Message.ts';
import type { Highlight as _wms_messaging_v1_Highlight, Highlight__Output as _wms_messaging_v1_Highlight__Output } from '../../../wms/messaging/v1/Highlight.ts';

export interface SearchHit {
  'message'?: (_wms_messaging_v1_Message | null);
  'highlights'?: (_wms_messaging_v1_Highlight)[];
}

export interface SearchHit__Output {
  'message': (_wms_messaging_v1_Message__Output | null);
  'highlights': (_wms_messaging_v1_Highlight__Output)[];
}
