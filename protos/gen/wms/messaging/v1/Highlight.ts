// Original file: messaging/v1/messaging.proto


export interface Highlight {
  'start'?: (number);
  'end'?: (number);
}

export interface Highlight__Output {
  'start': (number);
  'end': (number);
}
