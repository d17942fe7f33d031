// Original file: messaging/v1/messaging.proto

import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from '../../../wms/messaging/v1/Channel.ts';

export interface DirectConversation {
  'channel'?: (_wms_messaging_v1_Channel | null);
  'created'?: (boolean);
}

export interface DirectConversation__Output {
  'channel': (_wms_messaging_v1_Channel__Output | null);
  'created': (boolean);
}
