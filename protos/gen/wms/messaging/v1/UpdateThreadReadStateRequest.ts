// Original file: messaging/v1/messaging.proto


export interface UpdateThreadReadStateRequest {
  'root_id'?: (string);
  'last_read_message_id'?: (string);
}

export interface UpdateThreadReadStateRequest__Output {
  'root_id': (string);
  'last_read_message_id': (string);
}
