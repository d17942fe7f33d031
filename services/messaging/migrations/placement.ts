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
};
