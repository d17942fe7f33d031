import { v7 } from 'uuid';
import { ensure } from './errors.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new time-ordered UUIDv7 (ordering by id is ordering by creation time). */
export const uuidv7 = (): string => v7();

/** True for a lowercase UUID string: the form Postgres returns and the gateway forwards, so stores take anything else to name no row. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

/** How many ids one batch read (`Get…ByIds`) takes at most. */
export const MAX_BATCH_IDS = 1000;

/** The distinct well-formed ids of a batch call (unknown shapes can match nothing); 400 on `field` past `max`. */
export function batchIds(ids: string[], field = 'ids', max = MAX_BATCH_IDS): string[] {
  ensure([field, ids.length <= max, `at most ${max} ids per call`]);
  return [...new Set(ids)].filter(isUuid);
}
