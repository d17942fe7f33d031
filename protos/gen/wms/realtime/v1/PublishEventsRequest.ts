// Original file: realtime/v1/realtime.proto

import type { OutboxEvent as _wms_realtime_v1_OutboxEvent, OutboxEvent__Output as _wms_realtime_v1_OutboxEvent__Output } from '../../../wms/realtime/v1/OutboxEvent.ts';

export interface PublishEventsRequest {
  'source'?: (string);
  'events'?: (_wms_realtime_v1_OutboxEvent)[];
}

export interface PublishEventsRequest__Output {
  'source': (string);
  'events': (_wms_realtime_v1_OutboxEvent__Output)[];
}
