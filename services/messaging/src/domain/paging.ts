import { ensure } from '@wms/kit/errors';
import { isUuid } from '@wms/kit/ids';

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

/** The cursor of a list keyed by message id (the last id of the previous page); null for the first page. */
export function idCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  ensure(['query.cursor', isUuid(cursor), 'must be a next_cursor from a previous page']);
  return cursor;
}
