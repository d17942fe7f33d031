// Original file: messaging/v1/messaging.proto

import type { Reaction as _wms_messaging_v1_Reaction, Reaction__Output as _wms_messaging_v1_Reaction__Output } from '../../../wms/messaging/v1/Reaction.ts';

export interface MessageReactions {
  'message_id'?: (string);
  'reactions'?: (_wms_messaging_v1_Reaction)[];
  'reactions_version'?: (number);
}

export interface MessageReactions__Output {
  'message_id': (string);
  'reactions': (_wms_messaging_v1_Reaction__Output)[];
  'reactions_version': (number);
}
