import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@wms/kit/db';
import { createTestDatabase } from '@wms/testkit';
import { createLogger } from '@wms/kit/logger';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';

// The delivery mark replaces each event's triggered_at: a schema with events in it, some triggered, moves over.

const schema = 'realtime';
let database: { url: string; drop(): Promise<void> };
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase(schema, migrations.slice(0, 1));
  db = createDb({ url: database.url, schema, log: createLogger('realtime-test', 'silent') });
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

it('sets the delivery mark below the first event not yet triggered, and keeps every event', async () => {
  const event = (n: number, triggered: boolean) => ({
    event_id: randomUUID(),
    source: 'messaging',
    source_id: String(n),
    workspace_id: randomUUID(),
    channel: 'private-workspace-x',
    name: 'test.event',
    data: JSON.stringify({ n }),
    triggered_at: triggered ? new Date() : null,
  });
  const ids: string[] = (
    await db('events')
      .insert([event(1, true), event(2, true), event(3, false), event(4, false)])
      .returning('id')
  ).map((r: { id: string }) => String(r.id));
  expect(await migrate(db, schema, migrations)).toEqual(['20261203000000_delivery_mark']);
  const { triggered_through } = await db('event_retention').first('triggered_through');
  expect(String(triggered_through)).toBe(ids[1]);
  expect((await db('events').orderBy('id').pluck('id')).map(String)).toEqual(ids);
});
