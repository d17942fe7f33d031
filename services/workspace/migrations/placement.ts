import type { SchemaPlacement } from '@wms/kit/placement';

/** Where workspace's tables go on Citus (kit placement.ts). */
export const placement: SchemaPlacement = {
  schema: 'workspace',
  distribution: 'by-workspace',
  tables: {
    // Every distributed table's foreign key to its workspace points here, and a membership check reads it by id.
    workspaces: 'reference',
    actors: 'distributed',
    workspace_users: 'distributed',
    avatars: 'distributed',
    // Looked up by the secret's hash on a gateway cache miss: the token carries no workspace. Few rows, rare writes.
    tokens: 'reference',
    // The invitee reaches them by id, email or link token, none of which names the workspace. Few rows, rare writes.
    invitations: 'reference',
    invitation_links: 'reference',
    // Events now go through the WAL (kit outbox.ts); the table stays for one release (docs/operations.md#upgrades).
    outbox: 'local',
  },
};
