import type { Migration } from '@wms/kit/db';
import * as assets from './20261121020000_assets.ts';
import * as workspaceIndex from './20261121050000_workspace_index.ts';
import * as citusKeys from './20261213000000_citus_keys.ts';
import * as citusContract from './20261215000000_citus_contract.ts';

/** Every migration of the asset schema, in order. */
export const migrations: Migration[] = [
  { name: '20261121020000_assets', ...assets },
  { name: '20261121050000_workspace_index', ...workspaceIndex },
  { name: '20261213000000_citus_keys', ...citusKeys },
  { name: '20261215000000_citus_contract', ...citusContract },
];
