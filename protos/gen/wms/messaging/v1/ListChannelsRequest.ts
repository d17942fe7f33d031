// Original file: messaging/v1/messaging.proto


export interface ListChannelsRequest {
  'q'?: (string);
  '_q'?: "q";
}

export interface ListChannelsRequest__Output {
  'q'?: (string);
  '_q'?: "q";
}
