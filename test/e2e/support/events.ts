import { waitFor } from '@wms/testkit';
import type pg from 'pg';
import { sql } from './db.ts';

/** One event a data owner recorded, as the realtime service stored it. */
export interface RecordedEvent<P = Record<string, unknown>> {
  channel: string;
  event: string;
  payload: P;
}

/**
 * The events of a data owner that match `where` (SQL over `channel`, `event` and `payload`, with `params` as $1...),
 * oldest first, as realtime received them from the owner's outbox relay. It waits until everything the owner had
 * committed when called has been relayed (the relay deletes what it published), so an empty answer means nothing
 * was recorded.
 */
export async function recordedEvents<P = Record<string, unknown>>(
  source: 'messaging' | 'workspace',
  where: string,
  params: unknown[] = [],
): Promise<Array<RecordedEvent<P>>> {
  const [{ last } = { last: null }] = await sql<{ last: string | null }>(
    `SELECT max(id)::text AS last FROM ${source}.outbox`,
  );
  if (last !== null) {
    await waitFor(
      `the ${source} outbox to be relayed`,
      async () => (await sql(`SELECT 1 FROM ${source}.outbox WHERE id <= $1 LIMIT 1`, [last])).length === 0,
      15_000,
      20,
    );
  }
  return sql<RecordedEvent<P> & pg.QueryResultRow>(
    `SELECT channel, event, payload FROM (SELECT id, channel, name AS event, data AS payload FROM realtime.events WHERE source = '${source}') AS e
     WHERE ${where} ORDER BY id`,
    params,
  );
}
