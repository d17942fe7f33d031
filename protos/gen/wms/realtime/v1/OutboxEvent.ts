// Original file: realtime/v1/realtime.proto


export interface OutboxEvent {
  'source_id'?: (string);
  'workspace_id'?: (string);
  'channel'?: (string);
  'name'?: (string);
  'payload'?: (string);
  'created_at'?: (string);
}

export interface OutboxEvent__Output {
  'source_id': (string);
  'workspace_id': (string);
  'channel': (string);
  'name': (string);
  'payload': (string);
  'created_at': (string);
}
