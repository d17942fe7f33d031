// Original file: realtime/v1/realtime.proto

import type { ActorPresence as _wms_realtime_v1_ActorPresence, ActorPresence__Output as _wms_realtime_v1_ActorPresence__Output } from '../../../wms/realtime/v1/ActorPresence.ts';

export interface PresenceList {
  'items'?: (_wms_realtime_v1_ActorPresence)[];
}

export interface PresenceList__Output {
  'items': (_wms_realtime_v1_ActorPresence__Output)[];
}
