import type { Migration } from '@wms/kit/db';
import * as channels from './20261121000000_channels.ts';
import * as messages from './20261121010000_messages.ts';
import * as messageAssets from './20261121030000_message_assets.ts';
import * as cleanup from './20261121040000_cleanup.ts';
import * as purgeIndexes from './20261121050000_purge_indexes.ts';
import * as outboxXid from './20261201000000_outbox_xid.ts';
import * as outboxCommitOrder from './20261202000000_outbox_commit_order.ts';
import * as conversations from './20261204000000_conversations.ts';
import * as conversationActivity from './20261205000000_conversation_activity.ts';
import * as search from './20261206000000_search.ts';
import * as channelNameSearch from './20261207000000_channel_name_search.ts';
import * as richMessages from './20261211000000_rich_messages.ts';
import * as workspaceColumns from './20261214000000_workspace_columns.ts';
import * as citusKeys from './20261214010000_citus_keys.ts';
import * as countIndexes from './20261214020000_count_indexes.ts';
import * as citusContract from './20261215000000_citus_contract.ts';

/** Every migration of the messaging schema, in order. */
export const migrations: Migration[] = [
  { name: '20261121000000_channels', ...channels },
  { name: '20261121010000_messages', ...messages },
  { name: '20261121030000_message_assets', ...messageAssets },
  { name: '20261121040000_cleanup', ...cleanup },
  { name: '20261121050000_purge_indexes', ...purgeIndexes },
  { name: '20261201000000_outbox_xid', ...outboxXid },
  { name: '20261202000000_outbox_commit_order', ...outboxCommitOrder },
  { name: '20261204000000_conversations', ...conversations },
  { name: '20261205000000_conversation_activity', ...conversationActivity },
  { name: '20261206000000_search', ...search },
  { name: '20261207000000_channel_name_search', ...channelNameSearch },
  { name: '20261211000000_rich_messages', ...richMessages },
  { name: '20261214000000_workspace_columns', ...workspaceColumns },
  { name: '20261214010000_citus_keys', ...citusKeys },
  { name: '20261214020000_count_indexes', ...countIndexes },
  { name: '20261215000000_citus_contract', ...citusContract },
];
