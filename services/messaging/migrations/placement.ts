import type { SchemaPlacement } from '@wms/kit/placement';

/** Where messaging's tables go on Citus (kit placement.ts): all of a workspace's, co-located. */
export const placement: SchemaPlacement = {
  schema: 'messaging',
  distribution: 'by-workspace',
  tables: {
    channels: 'distributed',
    channel_members: 'distributed',
    messages: 'distributed',
    message_versions: 'distributed',
    mentions: 'distributed',
    reactions: 'distributed',
    saved_messages: 'distributed',
    thread_reads: 'distributed',
    conversation_reads: 'distributed',
    client_messages: 'distributed',
    // Events now go through the WAL (kit outbox.ts); the table stays for one release (docs/operations.md#upgrades).
    outbox: 'local',
  },
  untilNextRelease: [
    // Keeps what the previous release writes without children consistent (20261211000000_rich_messages).
    'messages_written_before_children',
    // Fill in workspace_id, which the previous release's inserts do not name (20261214000000_workspace_columns).
    'mentions_workspace_id_fill',
    'reactions_workspace_id_fill',
    'message_versions_workspace_id_fill',
    'conversation_reads_workspace_id_fill',
    'client_messages_workspace_id_fill',
    // The old primary keys that the previous release's upserts name in ON CONFLICT (...), which infers its arbiter from
    // exactly these columns; beside another unique index on the same rows, concurrent upserts of one new row would fail
    // on it (20261214010000_citus_keys). This release's upserts name no key (kit keylessUpsert), so the next release
    // swaps them for (workspace_id, ...) while they run.
    'channel_members_pkey',
    'conversation_reads_pkey',
    'thread_reads_pkey',
    'client_messages_pkey',
  ],
};
