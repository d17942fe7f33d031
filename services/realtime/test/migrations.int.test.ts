import { randomUUID } from 'node:crypto';
import { createDb, type Knex, migrate } from '@wms/kit/db';
import { createTestDatabase } from '@wms/testkit';
import { createLogger } from '@wms/kit/logger';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';

// The delivery mark replaces each event's triggered_at: a schema with events in it, some triggered, moves over.
// Presence's missing mark: added unset on the rows there; the previous release's inserts, which do not name it, go on
// working.

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
  expect(await migrate(db, schema, migrations.slice(0, 2))).toEqual(['20261203000000_delivery_mark']);
  const { triggered_through } = await db('event_retention').first('triggered_through');
  expect(String(triggered_through)).toBe(ids[1]);
  expect((await db('events').orderBy('id').pluck('id')).map(String)).toEqual(ids);
});

it("adds presence's missing mark unset on the rows there, and takes rows written without it", async () => {
  const row = () => ({ actor_id: randomUUID(), workspace_id: randomUUID(), actor_channel: true });
  const before = row();
  await db('presence').insert(before);
  expect(await migrate(db, schema, migrations)).toEqual(['20261212000000_presence_missing']);
  const after = row();
  await db('presence').insert(after);
  const rows = await db('presence').whereIn('actor_id', [before.actor_id, after.actor_id]).select('missing_since');
  expect(rows).toEqual([{ missing_since: null }, { missing_since: null }]);
});
