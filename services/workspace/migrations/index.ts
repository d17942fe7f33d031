import type { Migration } from '@wms/kit/db';
import * as workspaces from './20261121000000_workspaces.ts';

/** Every migration of the workspace schema, in order. */
export const migrations: Migration[] = [{ name: '20261121000000_workspaces', ...workspaces }];
