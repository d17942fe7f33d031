// Original file: messaging/v1/messaging.proto

import type { MessageVersion as _wms_messaging_v1_MessageVersion, MessageVersion__Output as _wms_messaging_v1_MessageVersion__Output } from '../../../wms/messaging/v1/MessageVersion.ts';

export interface MessageHistory {
  'versions'?: (_wms_messaging_v1_MessageVersion)[];
}

export interface MessageHistory__Output {
  'versions': (_wms_messaging_v1_MessageVersion__Output)[];
}
