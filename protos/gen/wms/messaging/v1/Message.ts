// Original file: messaging/v1/messaging.proto

import type { Reaction as _wms_messaging_v1_Reaction, Reaction__Output as _wms_messaging_v1_Reaction__Output } from '../../../wms/messaging/v1/Reaction.ts';
import type { Asset as _wms_common_v1_Asset, Asset__Output as _wms_common_v1_Asset__Output } from '../../../wms/common/v1/Asset.ts';
import type { MessageChild as _wms_messaging_v1_MessageChild, MessageChild__Output as _wms_messaging_v1_MessageChild__Output } from '../../../wms/messaging/v1/MessageChild.ts';

export interface Message {
  'id'?: (string);
  'workspace_id'?: (string);
  'conversation_id'?: (string);
  'author_actor_id'?: (string);
  'body_text'?: (string);
  'mentioned_actor_ids'?: (string)[];
  'parent_message_id'?: (string);
  'loading_expires_at'?: (string);
  'saved_at'?: (string);
  'reply_count'?: (number);
  'reply_actor_ids'?: (string)[];
  'last_reply_at'?: (string);
  'reactions'?: (_wms_messaging_v1_Reaction)[];
  'reactions_version'?: (number);
  'edited_at'?: (string);
  'deleted_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'assets'?: (_wms_common_v1_Asset)[];
  'children'?: (_wms_messaging_v1_MessageChild)[];
  '_parent_message_id'?: "parent_message_id";
  '_loading_expires_at'?: "loading_expires_at";
  '_saved_at'?: "saved_at";
  '_last_reply_at'?: "last_reply_at";
  '_edited_at'?: "edited_at";
  '_deleted_at'?: "deleted_at";
}

export interface Message__Output {
  'id': (string);
  'workspace_id': (string);
  'conversation_id': (string);
  'author_actor_id': (string);
  'body_text': (string);
  'mentioned_actor_ids': (string)[];
  'parent_message_id'?: (string);
  'loading_expires_at'?: (string);
  'saved_at'?: (string);
  'reply_count': (number);
  'reply_actor_ids': (string)[];
  'last_reply_at'?: (string);
  'reactions': (_wms_messaging_v1_Reaction__Output)[];
  'reactions_version': (number);
  'edited_at'?: (string);
  'deleted_at'?: (string);
  'created_at': (string);
  'updated_at': (string);
  'assets': (_wms_common_v1_Asset__Output)[];
  'children': (_wms_messaging_v1_MessageChild__Output)[];
  '_parent_message_id'?: "parent_message_id";
  '_loading_expires_at'?: "loading_expires_at";
  '_saved_at'?: "saved_at";
  '_last_reply_at'?: "last_reply_at";
  '_edited_at'?: "edited_at";
  '_deleted_at'?: "deleted_at";
}
