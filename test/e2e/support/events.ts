import { randomUUID } from 'node:crypto';
import { workspaceChannel } from '@wms/kit/channels';
import { EVENTS_MESSAGE_PREFIX } from '@wms/kit/outbox';
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
 * oldest first, as realtime stored them from the WAL. It waits until everything committed when called is stored:
 * a canary written now (a logical message of its own, after them in commit order) has arrived, so an empty answer
 * means nothing was recorded.
 */
export async function recordedEvents<P = Record<string, unknown>>(
  source: 'messaging' | 'workspace',
  where: string,
  params: unknown[] = [],
): Promise<Array<RecordedEvent<P>>> {
  const canary = randomUUID();
  const workspaceId = randomUUID();
  const message = {
    source: 'e2e-canary',
    events: [
      {
        workspace_id: workspaceId,
        channel: workspaceChannel(workspaceId),
        event: 'test.canary',
        payload: { event_id: canary },
      },
    ],
  };
  await sql('SELECT pg_logical_emit_message(true, $1::text, $2::text)', [
    EVENTS_MESSAGE_PREFIX,
    JSON.stringify(message),
  ]);
  await waitFor(
    'realtime to store what committed before the canary',
    async () =>
      (await sql("SELECT 1 FROM realtime.events WHERE source = 'e2e-canary' AND event_id = $1", [canary])).length > 0,
    15_000,
    20,
  );
  return sql<RecordedEvent<P> & pg.QueryResultRow>(
    `SELECT channel, event, payload FROM (SELECT id, channel, name AS event, data AS payload FROM realtime.events WHERE source = '${source}') AS e
     WHERE ${where} ORDER BY id`,
    params,
  );
}
