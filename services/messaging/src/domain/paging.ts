import { ensure } from '@wms/kit/errors';

/** One page of a list and the cursor of the next (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** `limit` of every paged list (contract §1): 1..100. */
export function pageLimit(limit: number): number {
  ensure(['query.limit', Number.isInteger(limit) && limit >= 1 && limit <= 100, 'must be an integer from 1 to 100']);
  return limit;
}
