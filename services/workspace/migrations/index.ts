import type { Migration } from '@wms/kit/db';
import * as workspaces from './20261121000000_workspaces.ts';
import * as outbox from './20261201000000_outbox.ts';
import * as outboxCommitOrder from './20261202000000_outbox_commit_order.ts';
import * as actorNameSearch from './20261207000000_actor_name_search.ts';
import * as tokens from './20261208000000_tokens.ts';
import * as invitations from './20261210000000_invitations.ts';
import * as citusKeys from './20261213000000_citus_keys.ts';
import * as citusContract from './20261215000000_citus_contract.ts';

/** Every migration of the workspace schema, in order. */
export const migrations: Migration[] = [
  { name: '20261121000000_workspaces', ...workspaces },
  { name: '20261201000000_outbox', ...outbox },
  { name: '20261202000000_outbox_commit_order', ...outboxCommitOrder },
  { name: '20261207000000_actor_name_search', ...actorNameSearch },
  { name: '20261208000000_tokens', ...tokens },
  { name: '20261210000000_invitations', ...invitations },
  { name: '20261213000000_citus_keys', ...citusKeys },
  { name: '20261215000000_citus_contract', ...citusContract },
];
