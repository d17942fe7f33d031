// Original file: messaging/v1/messaging.proto

import type { ChannelMember as _wms_messaging_v1_ChannelMember, ChannelMember__Output as _wms_messaging_v1_ChannelMember__Output } from '../../../wms/messaging/v1/ChannelMember.ts';

export interface ChannelMemberPage {
  'items'?: (_wms_messaging_v1_ChannelMember)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}

export interface ChannelMemberPage__Output {
  'items': (_wms_messaging_v1_ChannelMember__Output)[];
  'next_cursor'?: (string);
  '_next_cursor'?: "next_cursor";
}
