// Original file: realtime/v1/realtime.proto


export interface AcceptWebhookRequest {
  'raw_body'?: (Buffer | Uint8Array | string);
  'key'?: (string);
  'signature'?: (string);
  'content_type'?: (string);
}

export interface AcceptWebhookRequest__Output {
  'raw_body': (Buffer);
  'key': (string);
  'signature': (string);
  'content_type': (string);
}
