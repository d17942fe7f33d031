// Original file: messaging/v1/messaging.proto

import type { Message as _wms_messaging_v1_Message, Message__Output as _wms_messaging_v1_Message__Output } from '../../../wms/messaging/v1/Message.ts';

export interface Thread {
  'id'?: (string);
  'conversation_id'?: (string);
  'root_message'?: (_wms_messaging_v1_Message | null);
  'reply_count'?: (number);
  'last_reply_at'?: (string);
  'following'?: (boolean);
  'last_read_message_id'?: (string);
  'unread_count'?: (number);
  'mention_count'?: (number);
  '_last_reply_at'?: "last_reply_at";
  '_last_read_message_id'?: "last_read_message_id";
}

export interface Thread__Output {
  'id': (string);
  'conversation_id': (string);
  'root_message': (_wms_messaging_v1_Message__Output | null);
  'reply_count': (number);
  'last_reply_at'?: (string);
  'following': (boolean);
  'last_read_message_id'?: (string);
  'unread_count': (number);
  'mention_count': (number);
  '_last_reply_at'?: "last_reply_at";
  '_last_read_message_id'?: "last_read_message_id";
}
