import type { SchemaPlacement } from '@wms/kit/placement';

/**
 * Realtime (one event sequence, advisory locks, an actor's presence) fits a distributed schema: on Citus it is
 * distributed whole (kit placement.ts).
 */
export const placement: SchemaPlacement = { schema: 'realtime', distribution: 'whole-schema' };
