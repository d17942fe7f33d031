import { v7 } from 'uuid';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new time-ordered UUIDv7 (ordering by id is ordering by creation time). */
export const uuidv7 = (): string => v7();

/** True for a lowercase UUID string. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);
