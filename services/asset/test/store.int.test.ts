import { randomUUID } from 'node:crypto';
import { createDb, type Knex } from '@wms/kit/db';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { type Asset, MAX_ASSET_BYTES, UNATTACHED_TTL_MS } from '../src/domain/asset.ts';
import { AssetStore } from '../src/store/asset.store.ts';

const log = createLogger('asset-store-test', 'silent');

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let store: AssetStore;

beforeAll(async () => {
  database = await createTestDatabase('asset', migrations);
  db = createDb({ url: database.url, schema: 'asset', log });
  store = new AssetStore(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** Where a reservation lives and who made it: one random workspace, conversation and actor per call. */
const place = () => ({ workspaceId: randomUUID(), conversationId: randomUUID(), actorId: randomUUID() });
type Place = ReturnType<typeof place>;

const reserve = (at: Place, over: Partial<{ name: string; contentType: string; sizeBytes: number }> = {}) =>
  store.insert({
    id: randomUUID(),
    workspaceId: at.workspaceId,
    conversationId: at.conversationId,
    reservedByActorId: at.actorId,
    name: over.name ?? `file-${randomUUID().slice(0, 8)}.bin`,
    contentType: over.contentType ?? 'application/octet-stream',
    sizeBytes: over.sizeBytes ?? 1 + Math.floor(Math.random() * 1000),
  });

const keyFor = (a: Asset) => `assets/${a.workspaceId}/${a.id}/${randomUUID()}`;

async function readyAsset(at: Place): Promise<Asset> {
  const a = await reserve(at);
  const ready = await store.markReady(a.workspaceId, a.id, keyFor(a));
  expect(ready?.status).toBe('ready');
  return ready!;
}

const attachTo = (at: Place, messageId: string, ids: string[]) =>
  store.attach({ workspaceId: at.workspaceId, conversationId: at.conversationId, actorId: at.actorId, messageId, ids });

/** The row as stored, read around the store. */
const row = (id: string) =>
  db('assets')
    .where({ id })
    .first<{ message_id: string | null; status: string; storage_key: string | null } | undefined>();

const setCreatedAt = (ids: string[], at: Date) => db('assets').whereIn('id', ids).update({ created_at: at });

describe(AssetStore.name, () => {
  describe('insert and reads', () => {
    it('reserves a pending, unattached asset and reads it back as the domain type', async () => {
      const at = place();
      const id = randomUUID();
      const inserted = await store.insert({
        id,
        workspaceId: at.workspaceId,
        conversationId: at.conversationId,
        reservedByActorId: at.actorId,
        name: 'report.pdf',
        contentType: 'application/pdf',
        sizeBytes: MAX_ASSET_BYTES,
      });
      expect(inserted).toEqual({
        id,
        workspaceId: at.workspaceId,
        conversationId: at.conversationId,
        reservedByActorId: at.actorId,
        messageId: null,
        name: 'report.pdf',
        contentType: 'application/pdf',
        sizeBytes: MAX_ASSET_BYTES,
        status: 'pending',
        storageKey: null,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      // bigint comes back from pg as a string; the store must hand out a number.
      expect(typeof inserted.sizeBytes).toBe('number');
      expect(await store.find(at.workspaceId, id)).toEqual(inserted);
    });

    it('does not find an asset through another workspace', async () => {
      const a = await reserve(place());
      expect(await store.find(randomUUID(), a.id)).toBeUndefined();
      expect(await store.find(a.workspaceId, randomUUID())).toBeUndefined();
    });

    it('finds nothing for a malformed id', async () => {
      const a = await reserve(place());
      expect(await store.find(a.workspaceId, 'not-a-uuid')).toBeUndefined();
    });

    it('reads many ids of the workspace at once, leaving out unknown ids and other workspaces', async () => {
      const at = place();
      const mine = await Promise.all([reserve(at), reserve({ ...at, conversationId: randomUUID() }), readyAsset(at)]);
      const theirs = await reserve(place());
      const found = await store.findMany(at.workspaceId, [...mine.map((a) => a.id), theirs.id, randomUUID()]);
      expect(found.map((a) => a.id)).toEqual(mine.map((a) => a.id).sort());
      const ready = found.find((a) => a.id === mine[2].id);
      expect(ready).toEqual(mine[2]);
      expect(await store.findMany(at.workspaceId, [])).toEqual([]);
    });
  });

  describe('markReady', () => {
    it('records the key of a pending asset once and then refuses to change it', async () => {
      const a = await reserve(place());
      const key = keyFor(a);
      const ready = await store.markReady(a.workspaceId, a.id, key);
      expect(ready).toMatchObject({ id: a.id, status: 'ready', storageKey: key });
      expect(await store.markReady(a.workspaceId, a.id, keyFor(a))).toBeUndefined();
      expect(await row(a.id)).toMatchObject({ status: 'ready', storage_key: key });
    });

    it('answers undefined for an unknown id', async () => {
      expect(await store.markReady(randomUUID(), randomUUID(), 'assets/none')).toBeUndefined();
    });

    it('leaves an asset of another workspace pending', async () => {
      const a = await reserve(place());
      expect(await store.markReady(randomUUID(), a.id, keyFor(a))).toBeUndefined();
      expect(await row(a.id)).toMatchObject({ status: 'pending', storage_key: null });
    });

    it('lets exactly one of several concurrent uploads win', async () => {
      const a = await reserve(place());
      const keys = Array.from({ length: 6 }, () => keyFor(a));
      const results = await Promise.all(keys.map((k) => store.markReady(a.workspaceId, a.id, k)));
      const winners = results.filter((r): r is Asset => r !== undefined);
      expect(winners).toHaveLength(1);
      expect(keys).toContain(winners[0]!.storageKey);
      expect((await row(a.id))?.storage_key).toBe(winners[0]!.storageKey);
    });
  });

  describe('attach', () => {
    it('attaches the actor’s unattached reservations of the conversation, in the order asked', async () => {
      const at = place();
      const first = await reserve(at);
      const second = await readyAsset(at);
      const messageId = randomUUID();
      const attached = await attachTo(at, messageId, [second.id, first.id]);
      expect(attached?.map((a) => a.id)).toEqual([second.id, first.id]);
      expect(attached?.every((a) => a.messageId === messageId)).toBe(true);
      expect(attached?.[0]).toMatchObject({ status: 'ready', storageKey: second.storageKey });
      expect((await store.find(at.workspaceId, first.id))?.messageId).toBe(messageId);
    });

    it('attaches nothing when one id is of another conversation', async () => {
      const at = place();
      const ok = await reserve(at);
      const elsewhere = await reserve({ ...at, conversationId: randomUUID() });
      expect(await attachTo(at, randomUUID(), [ok.id, elsewhere.id])).toBeUndefined();
      expect((await row(ok.id))?.message_id).toBeNull();
      expect((await row(elsewhere.id))?.message_id).toBeNull();
    });

    it('attaches nothing when one id was reserved by another actor', async () => {
      const at = place();
      const ok = await reserve(at);
      const someoneElses = await reserve({ ...at, actorId: randomUUID() });
      expect(await attachTo(at, randomUUID(), [ok.id, someoneElses.id])).toBeUndefined();
      expect((await row(ok.id))?.message_id).toBeNull();
      expect((await row(someoneElses.id))?.message_id).toBeNull();
    });

    it('attaches nothing when one id is of another workspace', async () => {
      const at = place();
      const ok = await reserve(at);
      const foreign = await reserve({ ...at, workspaceId: randomUUID() });
      expect(await attachTo(at, randomUUID(), [ok.id, foreign.id])).toBeUndefined();
      expect((await row(ok.id))?.message_id).toBeNull();
      expect((await row(foreign.id))?.message_id).toBeNull();
    });

    it('attaches nothing when one id is already attached, and keeps that one’s message', async () => {
      const at = place();
      const taken = await reserve(at);
      const first = randomUUID();
      expect(await attachTo(at, first, [taken.id])).toHaveLength(1);
      const fresh = await reserve(at);
      expect(await attachTo(at, randomUUID(), [fresh.id, taken.id])).toBeUndefined();
      expect((await row(taken.id))?.message_id).toBe(first);
      expect((await row(fresh.id))?.message_id).toBeNull();
    });

    it('attaches nothing when one id does not exist', async () => {
      const at = place();
      const ok = await reserve(at);
      expect(await attachTo(at, randomUUID(), [ok.id, randomUUID()])).toBeUndefined();
      expect((await row(ok.id))?.message_id).toBeNull();
    });

    it('attaches nothing when an id is malformed', async () => {
      const at = place();
      const ok = await reserve(at);
      expect(await attachTo(at, randomUUID(), [ok.id, 'not-a-uuid'])).toBeUndefined();
      expect(await attachTo(at, 'not-a-uuid', [ok.id])).toBeUndefined();
      expect(
        await store.attach({
          workspaceId: at.workspaceId,
          conversationId: 'not-a-uuid',
          actorId: at.actorId,
          messageId: randomUUID(),
          ids: [ok.id],
        }),
      ).toBeUndefined();
      expect((await row(ok.id))?.message_id).toBeNull();
    });

    it('lets exactly one of several messages racing for the same reservations attach them', async () => {
      const at = place();
      const ids = (await Promise.all([reserve(at), reserve(at)])).map((a) => a.id);
      const messages = Array.from({ length: 5 }, () => randomUUID());
      const results = await Promise.all(messages.map((m) => attachTo(at, m, ids)));
      const winners = messages.filter((_, i) => results[i] !== undefined);
      expect(winners).toHaveLength(1);
      expect((await row(ids[0]!))?.message_id).toBe(winners[0]);
      expect((await row(ids[1]!))?.message_id).toBe(winners[0]);
    });
  });

  describe('detach', () => {
    it('unattaches the assets of the given messages only, so a retry can attach them again', async () => {
      const at = place();
      const [a, b, c, d] = await Promise.all([reserve(at), reserve(at), readyAsset(at), reserve(at)]);
      const [m1, m2, m3] = [randomUUID(), randomUUID(), randomUUID()];
      expect(await attachTo(at, m1, [a.id, b.id])).toHaveLength(2);
      expect(await attachTo(at, m2, [c.id])).toHaveLength(1);
      expect(await attachTo(at, m3, [d.id])).toHaveLength(1);

      await store.detach(at.workspaceId, [m1, m2, randomUUID()]);
      for (const x of [a, b, c]) expect((await row(x.id))?.message_id).toBeNull();
      expect((await row(d.id))?.message_id).toBe(m3);
      expect(await row(c.id)).toMatchObject({ status: 'ready', storage_key: c.storageKey });

      const retry = randomUUID();
      expect((await attachTo(at, retry, [a.id, b.id, c.id]))?.map((x) => x.messageId)).toEqual([retry, retry, retry]);
    });

    it('leaves an asset of another workspace attached to a message id given', async () => {
      const at = place();
      const elsewhere = place();
      const [mine, theirs] = await Promise.all([reserve(at), reserve(elsewhere)]);
      const m = randomUUID();
      await attachTo(at, m, [mine.id]);
      await attachTo(elsewhere, m, [theirs.id]);

      await store.detach(at.workspaceId, [m]);
      expect((await row(mine.id))?.message_id).toBeNull();
      expect((await row(theirs.id))?.message_id).toBe(m);
    });

    it('does nothing for an empty batch', async () => {
      const at = place();
      const a = await reserve(at);
      const m = randomUUID();
      await attachTo(at, m, [a.id]);
      await store.detach(at.workspaceId, []);
      expect((await row(a.id))?.message_id).toBe(m);
    });
  });

  describe('deleteOfMessages', () => {
    it('removes every asset of the given messages and returns the keys of those with bytes', async () => {
      const at = place();
      const [pending, ready1, ready2, kept] = await Promise.all([
        reserve(at),
        readyAsset(at),
        readyAsset(at),
        readyAsset(at),
      ]);
      const unattached = await reserve(at);
      const [m1, m2, m3] = [randomUUID(), randomUUID(), randomUUID()];
      await attachTo(at, m1, [pending.id, ready1.id]);
      await attachTo(at, m2, [ready2.id]);
      await attachTo(at, m3, [kept.id]);

      const keys = await store.deleteOfMessages(at.workspaceId, [m1, m2]);
      expect(keys.sort()).toEqual([ready1.storageKey, ready2.storageKey].sort());
      expect(await store.findMany(at.workspaceId, [pending.id, ready1.id, ready2.id])).toEqual([]);
      expect(await row(kept.id)).toMatchObject({ message_id: m3 });
      expect(await row(unattached.id)).toMatchObject({ message_id: null });
    });

    it('leaves an asset of another workspace attached to a message id given, with its bytes', async () => {
      const [at, elsewhere] = [place(), place()];
      const [mine, theirs] = await Promise.all([readyAsset(at), readyAsset(elsewhere)]);
      const m = randomUUID();
      await attachTo(at, m, [mine.id]);
      await attachTo(elsewhere, m, [theirs.id]);

      expect(await store.deleteOfMessages(at.workspaceId, [m])).toEqual([mine.storageKey]);
      expect(await row(mine.id)).toBeUndefined();
      expect(await row(theirs.id)).toMatchObject({ message_id: m, storage_key: theirs.storageKey });
    });

    it('removes nothing for an empty batch or messages without assets', async () => {
      const at = place();
      const a = await readyAsset(at);
      await attachTo(at, randomUUID(), [a.id]);
      expect(await store.deleteOfMessages(at.workspaceId, [])).toEqual([]);
      expect(await store.deleteOfMessages(at.workspaceId, [randomUUID()])).toEqual([]);
      expect(await row(a.id)).toBeDefined();
    });
  });

  describe('deleteUnattached', () => {
    it('sweeps reservations no message attached within 24 hours, with their keys, and nothing else', async () => {
      const at = place();
      const now = Date.now();
      const oldPending = await reserve(at);
      const oldReady = await readyAsset(at);
      const oldAttached = await reserve(at);
      await attachTo(at, randomUUID(), [oldAttached.id]);
      const youngPending = await reserve(at);
      const brandNew = await reserve(at);
      await setCreatedAt([oldPending.id, oldReady.id], new Date(now - UNATTACHED_TTL_MS - 60 * 60 * 1000));
      await setCreatedAt([oldAttached.id], new Date(now - 2 * UNATTACHED_TTL_MS));
      await setCreatedAt([youngPending.id], new Date(now - UNATTACHED_TTL_MS + 60 * 60 * 1000));

      const keys = await store.deleteUnattached(new Date(now - UNATTACHED_TTL_MS));
      expect(keys).toHaveLength(2);
      expect(keys).toEqual(expect.arrayContaining([null, oldReady.storageKey]));
      expect(await row(oldPending.id)).toBeUndefined();
      expect(await row(oldReady.id)).toBeUndefined();
      expect(await row(oldAttached.id)).toBeDefined();
      expect(await row(youngPending.id)).toBeDefined();
      expect(await row(brandNew.id)).toBeDefined();
    });

    it('removes at most `limit` per call, oldest first, until none are left', async () => {
      const at = place();
      // A distant past of its own, so no other test's rows fall before the cutoff.
      const base = Date.parse('2001-01-01T00:00:00Z');
      const olds = [];
      for (let i = 0; i < 5; i++) olds.push(await reserve(at));
      await Promise.all(olds.map((a, i) => setCreatedAt([a.id], new Date(base + i * 1000))));
      const cutoff = new Date(base + 60 * 60 * 1000);

      expect(await store.deleteUnattached(cutoff, 2)).toHaveLength(2);
      expect(await row(olds[0]!.id)).toBeUndefined();
      expect(await row(olds[1]!.id)).toBeUndefined();
      for (const a of olds.slice(2)) expect(await row(a.id)).toBeDefined();

      expect(await store.deleteUnattached(cutoff, 2)).toHaveLength(2);
      expect(await store.deleteUnattached(cutoff, 2)).toHaveLength(1);
      expect(await store.deleteUnattached(cutoff, 2)).toHaveLength(0);
      expect(
        await store.findMany(
          at.workspaceId,
          olds.map((a) => a.id),
        ),
      ).toEqual([]);
    });
  });

  describe('purge by workspace', () => {
    it('hands out a deleted workspace’s assets in bounded batches, in id order, until deleting them leaves none', async () => {
      const at = place();
      const other = await readyAsset(place());
      const pending = await Promise.all([reserve(at), reserve({ ...at, conversationId: randomUUID() })]);
      const ready = await Promise.all([readyAsset(at), readyAsset(at), readyAsset({ ...at, actorId: randomUUID() })]);
      await attachTo(at, randomUUID(), [ready[0].id]);
      const all = [...pending, ...ready];

      const seen: Array<{ id: string; storageKey: string | null }> = [];
      for (let round = 0; round < 10; round++) {
        const batch = await store.ofWorkspace(at.workspaceId, 2);
        expect(batch.length).toBeLessThanOrEqual(2);
        seen.push(...batch);
        if (batch.length > 0)
          await store.deleteIds(
            at.workspaceId,
            batch.map((a) => a.id),
          );
        if (batch.length < 2) break;
      }
      expect(seen.map((a) => a.id)).toEqual(all.map((a) => a.id).sort());
      expect(seen.flatMap((a) => (a.storageKey ? [a.storageKey] : [])).sort()).toEqual(
        ready.map((a) => a.storageKey).sort(),
      );
      expect(await store.ofWorkspace(at.workspaceId, 2)).toEqual([]);
      expect(await store.find(other.workspaceId, other.id)).toEqual(other);
    });

    it('deletes only the ids given', async () => {
      const at = place();
      const [a, b] = await Promise.all([reserve(at), reserve(at)]);
      await store.deleteIds(at.workspaceId, [a.id]);
      await store.deleteIds(at.workspaceId, []);
      expect((await store.findMany(at.workspaceId, [a.id, b.id])).map((x) => x.id)).toEqual([b.id]);
    });

    it('deletes nothing of another workspace', async () => {
      const a = await reserve(place());
      await store.deleteIds(randomUUID(), [a.id]);
      expect(await row(a.id)).toBeDefined();
    });
  });
});
