import type { SchemaPlacement } from '@wms/kit/placement';

/**
 * Identity holds no workspace's data (users and sessions are global): on Citus its schema is distributed whole
 * (kit placement.ts).
 */
export const placement: SchemaPlacement = { schema: 'identity', distribution: 'whole-schema' };
