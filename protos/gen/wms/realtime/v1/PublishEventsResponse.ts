// Original file: realtime/v1/realtime.proto


export interface PublishEventsResponse {
  'accepted'?: (number);
}

export interface PublishEventsResponse__Output {
  'accepted': (number);
}
