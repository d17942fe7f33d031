import type { Migration } from '@wms/kit/db';
import * as accounts from './20261121000000_accounts.ts';

/** Every migration of the identity schema, in order. */
export const migrations: Migration[] = [{ name: '20261121000000_accounts', ...accounts }];
