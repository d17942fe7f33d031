// Original file: messaging/v1/messaging.proto

import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from '../../../wms/messaging/v1/Channel.ts';
import type { ReadState as _wms_messaging_v1_ReadState, ReadState__Output as _wms_messaging_v1_ReadState__Output } from '../../../wms/messaging/v1/ReadState.ts';

export interface ConversationSummary {
  'conversation'?: (_wms_messaging_v1_Channel | null);
  'read_state'?: (_wms_messaging_v1_ReadState | null);
}

export interface ConversationSummary__Output {
  'conversation': (_wms_messaging_v1_Channel__Output | null);
  'read_state': (_wms_messaging_v1_ReadState__Output | null);
}
