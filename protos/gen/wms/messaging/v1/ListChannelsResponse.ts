// Original file: messaging/v1/messaging.proto

import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from '../../../wms/messaging/v1/Channel.ts';

export interface ListChannelsResponse {
  'channels'?: (_wms_messaging_v1_Channel)[];
}

export interface ListChannelsResponse__Output {
  'channels': (_wms_messaging_v1_Channel__Output)[];
}
