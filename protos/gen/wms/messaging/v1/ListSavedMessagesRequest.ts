// Original file: messaging/v1/messaging.proto


export interface ListSavedMessagesRequest {
  'cursor'?: (string);
  'limit'?: (number);
  '_cursor'?: "cursor";
}

export interface ListSavedMessagesRequest__Output {
  'cursor'?: (string);
  'limit': (number);
  '_cursor'?: "cursor";
}
