import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type Knex } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { connectPeer, type PeerClient } from '@wms/kit/grpc-client';
import { bindHandlers, type RunningGrpcServer, startGrpcServer } from '@wms/kit/grpc-server';
import { createLogger } from '@wms/kit/logger';
import { createStorage, type ObjectStorage } from '@wms/kit/storage';
import { loadService } from '@wms/protos';
import { openTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import type { Asset } from '../src/domain/asset.ts';
import { assetHandlers } from '../src/rpc.ts';
import { AssetStore } from '../src/store/asset.store.ts';
import { buildAssetService } from '../src/wiring.ts';

// The messaging service's calls after a delete (ReleaseMessageAssets) and after a post that did not commit
// (DetachMessageAssets), served on port 0 over a cloned database and a storage directory of the file's own.
const log = createLogger('asset-rpc-test', 'silent');

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Knex;
let dir: string;
let storage: ObjectStorage;
let store: AssetStore;
let server: RunningGrpcServer;
let client: PeerClient<'asset'>;

beforeAll(async () => {
  database = await openTestDatabase('asset', migrations);
  db = database.db;
  dir = await mkdtemp(path.join(tmpdir(), 'wms-asset-rpc-'));
  storage = createStorage({ driver: 'fs', dir, publicUrl: 'http://localhost:8080', secret: 's'.repeat(32) });
  store = new AssetStore(db);
  // Neither call asks the messaging service anything.
  const refuse = () => Promise.reject(new Error('no messaging in this test'));
  const service = buildAssetService({
    db,
    storage,
    messaging: { GetChannel: refuse, AnnounceAssetsReady: refuse },
    log,
  });
  const AssetService = loadService('asset');
  server = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    services: [
      {
        definition: AssetService.service,
        implementation: bindHandlers(AssetService.service, assetHandlers(service), log),
      },
    ],
  });
  client = connectPeer('asset', `127.0.0.1:${server.port}`);
});

afterAll(async () => {
  client?.close();
  await server?.stop();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ctx = () => ({ requestId: randomUUID() });

/** A ready asset of a new conversation of the workspace, with its bytes stored, attached to the message. */
async function attached(workspaceId: string, messageId: string): Promise<Asset> {
  const place = { workspaceId, conversationId: randomUUID(), reservedByActorId: randomUUID() };
  const reserved = await store.insert({
    id: randomUUID(),
    ...place,
    name: 'a.txt',
    contentType: 'text/plain',
    sizeBytes: 5,
  });
  const key = `assets/${workspaceId}/${reserved.id}/${randomUUID()}`;
  await storage.put(key, Buffer.from('bytes'), { contentType: 'text/plain' });
  await store.markReady(workspaceId, reserved.id, key);
  const [asset] =
    (await store.attach({
      workspaceId,
      conversationId: place.conversationId,
      actorId: place.reservedByActorId,
      messageId,
      ids: [reserved.id],
    })) ?? [];
  expect(asset?.messageId).toBe(messageId);
  return asset!;
}

const row = (id: string) => db('assets').where({ id }).first<{ message_id: string | null } | undefined>();
const stored = async (a: Asset) => (await storage.stat(a.storageKey!)) !== undefined;

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('ReleaseMessageAssets', () => {
  it("removes the workspace's assets of the messages with their bytes, and leaves another workspace's alone", async () => {
    const [workspace, other] = [randomUUID(), randomUUID()];
    const [m1, m2] = [randomUUID(), randomUUID()];
    const mine = [await attached(workspace, m1), await attached(workspace, m2)];
    // Planted: another workspace's asset attached to a message id the call names.
    const theirs = await attached(other, m1);

    await client.ReleaseMessageAssets({ workspace_id: workspace, message_ids: [m1, m2] }, ctx());
    for (const a of mine) {
      expect(await row(a.id)).toBeUndefined();
      expect(await stored(a)).toBe(false);
    }
    expect((await row(theirs.id))?.message_id).toBe(m1);
    expect(await stored(theirs)).toBe(true);
  });

  it('answers invalid_input for a call that names no workspace, and removes nothing', async () => {
    const m = randomUUID();
    const a = await attached(randomUUID(), m);
    const err = await refusal(client.ReleaseMessageAssets({ message_ids: [m] }, ctx()));
    expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
    expect(err.details).toEqual([{ field: 'workspace_id', message: 'must be a UUID' }]);
    expect((await row(a.id))?.message_id).toBe(m);
    expect(await stored(a)).toBe(true);
  });

  it('answers invalid_input for a malformed workspace id, and removes nothing', async () => {
    const m = randomUUID();
    const a = await attached(randomUUID(), m);
    const err = await refusal(client.ReleaseMessageAssets({ workspace_id: 'not-a-uuid', message_ids: [m] }, ctx()));
    expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
    expect(err.details).toEqual([{ field: 'workspace_id', message: 'must be a UUID' }]);
    expect((await row(a.id))?.message_id).toBe(m);
    expect(await stored(a)).toBe(true);
  });
});

describe('DetachMessageAssets', () => {
  it("unattaches the workspace's assets of the messages, and leaves another workspace's attached", async () => {
    const [workspace, other] = [randomUUID(), randomUUID()];
    const m = randomUUID();
    const mine = await attached(workspace, m);
    const theirs = await attached(other, m);

    await client.DetachMessageAssets({ workspace_id: workspace, message_ids: [m] }, ctx());
    expect((await row(mine.id))?.message_id).toBeNull();
    expect(await stored(mine)).toBe(true);
    expect((await row(theirs.id))?.message_id).toBe(m);
  });

  it('answers invalid_input for a call that names no workspace, and unattaches nothing', async () => {
    const m = randomUUID();
    const a = await attached(randomUUID(), m);
    const err = await refusal(client.DetachMessageAssets({ message_ids: [m] }, ctx()));
    expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
    expect(err.details).toEqual([{ field: 'workspace_id', message: 'must be a UUID' }]);
    expect((await row(a.id))?.message_id).toBe(m);
  });

  it('answers invalid_input for a malformed workspace id, and unattaches nothing', async () => {
    const m = randomUUID();
    const a = await attached(randomUUID(), m);
    const err = await refusal(client.DetachMessageAssets({ workspace_id: 'not-a-uuid', message_ids: [m] }, ctx()));
    expect(err).toMatchObject({ kind: 'invalid_argument', code: 'invalid_input' });
    expect(err.details).toEqual([{ field: 'workspace_id', message: 'must be a UUID' }]);
    expect((await row(a.id))?.message_id).toBe(m);
  });
});
