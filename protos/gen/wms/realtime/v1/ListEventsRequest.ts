// Original file: realtime/v1/realtime.proto


export interface ListEventsRequest {
  'after'?: (string);
  'limit'?: (number);
  '_after'?: "after";
}

export interface ListEventsRequest__Output {
  'after'?: (string);
  'limit': (number);
  '_after'?: "after";
}
