// Original file: messaging/v1/messaging.proto


export interface MessageChild {
  'type'?: (string);
  'text'?: (string);
}

export interface MessageChild__Output {
  'type': (string);
  'text': (string);
}
