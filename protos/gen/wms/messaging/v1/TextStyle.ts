// Original file: messaging/v1/messaging.proto


export interface TextStyle {
  'bold'?: (boolean);
  'italic'?: (boolean);
  'strike'?: (boolean);
  'code'?: (boolean);
}

export interface TextStyle__Output {
  'bold': (boolean);
  'italic': (boolean);
  'strike': (boolean);
  'code': (boolean);
}
