// Original file: messaging/v1/messaging.proto

import type { TextStyle as _wms_messaging_v1_TextStyle, TextStyle__Output as _wms_messaging_v1_TextStyle__Output } from '../../../wms/messaging/v1/TextStyle.ts';

export interface MessageChild {
  'type'?: (string);
  'text'?: (string);
  'style'?: (_wms_messaging_v1_TextStyle | null);
  'url'?: (string);
  'actor_id'?: (string);
  'language'?: (string);
  '_style'?: "style";
  '_url'?: "url";
  '_actor_id'?: "actor_id";
  '_language'?: "language";
}

export interface MessageChild__Output {
  'type': (string);
  'text': (string);
  'style'?: (_wms_messaging_v1_TextStyle__Output | null);
  'url'?: (string);
  'actor_id'?: (string);
  'language'?: (string);
  '_style'?: "style";
  '_url'?: "url";
  '_actor_id'?: "actor_id";
  '_language'?: "language";
}
