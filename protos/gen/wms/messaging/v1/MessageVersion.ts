// Original file: messaging/v1/messaging.proto

import type { MessageChild as _wms_messaging_v1_MessageChild, MessageChild__Output as _wms_messaging_v1_MessageChild__Output } from '../../../wms/messaging/v1/MessageChild.ts';

export interface MessageVersion {
  'body_text'?: (string);
  'children'?: (_wms_messaging_v1_MessageChild)[];
  'mentioned_actor_ids'?: (string)[];
  'written_at'?: (string);
}

export interface MessageVersion__Output {
  'body_text': (string);
  'children': (_wms_messaging_v1_MessageChild__Output)[];
  'mentioned_actor_ids': (string)[];
  'written_at': (string);
}
