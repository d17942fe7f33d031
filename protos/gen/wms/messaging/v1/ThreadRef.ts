// Original file: messaging/v1/messaging.proto


export interface ThreadRef {
  'root_id'?: (string);
}

export interface ThreadRef__Output {
  'root_id': (string);
}
