// Original file: messaging/v1/messaging.proto


export interface SavedMessageState {
  'message_id'?: (string);
  'saved'?: (boolean);
  'saved_at'?: (string);
  '_saved_at'?: "saved_at";
}

export interface SavedMessageState__Output {
  'message_id': (string);
  'saved': (boolean);
  'saved_at'?: (string);
  '_saved_at'?: "saved_at";
}
