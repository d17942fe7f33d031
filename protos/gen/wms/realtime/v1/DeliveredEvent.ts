// Original file: realtime/v1/realtime.proto


export interface DeliveredEvent {
  'cursor'?: (string);
  'channel'?: (string);
  'name'?: (string);
  'data'?: (string);
  'created_at'?: (string);
}

export interface DeliveredEvent__Output {
  'cursor': (string);
  'channel': (string);
  'name': (string);
  'data': (string);
  'created_at': (string);
}
