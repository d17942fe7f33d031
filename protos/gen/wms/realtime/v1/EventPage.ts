// Original file: realtime/v1/realtime.proto

import type { DeliveredEvent as _wms_realtime_v1_DeliveredEvent, DeliveredEvent__Output as _wms_realtime_v1_DeliveredEvent__Output } from '../../../wms/realtime/v1/DeliveredEvent.ts';

export interface EventPage {
  'items'?: (_wms_realtime_v1_DeliveredEvent)[];
  'next_cursor'?: (string);
}

export interface EventPage__Output {
  'items': (_wms_realtime_v1_DeliveredEvent__Output)[];
  'next_cursor': (string);
}
