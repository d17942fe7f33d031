import { randomBytes, randomUUID } from 'node:crypto';
import type { CallContext } from '@wms/kit/context';
import { type Knex, type Transact, transactor } from '@wms/kit/db';
import { uuidv7 } from '@wms/kit/ids';
import { createLogger } from '@wms/kit/logger';
import type { MessageAssetsRequest } from '@wms/protos/gen/wms/asset/v1/MessageAssetsRequest';
import { openTestDatabase } from '@wms/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { type AssetClient, Attachments } from '../src/adapters/attachments.ts';
import type { Channel } from '../src/domain/channel.ts';
import { readBody } from '../src/domain/markdown.ts';
import type { Message } from '../src/domain/message.ts';
import { RELEASE_GRACE_MS } from '../src/queues.ts';
import { ChannelStore } from '../src/store/channel.store.ts';
import { MessageStore } from '../src/store/message.store.ts';
import { cleanupProcessor } from '../src/workers/cleanup.worker.ts';

// The cleanup worker's release of deleted messages' assets, against a database of this file's own (so its sweep sees
// only these rows) and an asset service that records what it is asked.
const log = createLogger('messaging-cleanup-test', 'silent');

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Knex;
let transact: Transact;
let channels: ChannelStore;
let messages: MessageStore;
let sweep: ReturnType<typeof cleanupProcessor>;

beforeAll(async () => {
  database = await openTestDatabase('messaging', migrations);
  db = database.db;
  transact = transactor(db);
  channels = new ChannelStore(db);
  messages = new MessageStore(db);
  sweep = cleanupProcessor({ messages, attachments: new Attachments(assets), log });
});

afterAll(async () => {
  await database?.drop();
});

/** What the asset service was asked to release, and the workspaces whose release it refuses. */
let released: Array<{ request: MessageAssetsRequest; ctx: CallContext }>;
let refusing: Set<string>;
beforeEach(() => {
  released = [];
  refusing = new Set();
});

const refuse = () => Promise.reject(new Error('not in this test'));
const assets: AssetClient = {
  GetAssetsByIds: refuse,
  AttachAssets: refuse,
  DetachMessageAssets: refuse,
  ReleaseMessageAssets: async (request, ctx) => {
    released.push({ request, ctx });
    if (refusing.has(request.workspace_id ?? '')) throw new Error('asset service down');
    return {};
  },
};

async function newChannel(workspaceId = randomUUID()): Promise<Channel> {
  const creator = randomUUID();
  const created = await channels.insert({
    id: uuidv7(),
    workspaceId,
    kind: 'public',
    name: `c-${randomBytes(5).toString('hex')}`,
    topic: null,
    createdByActorId: creator,
    memberActorIds: [creator],
    participantActorIds: [],
  });
  return created!.channel;
}

/** A message with assets, deleted `ago` ms before now, its assets not released yet (its own release failed). */
async function deletedWithAssets(channel: Channel, ago = RELEASE_GRACE_MS + 60_000): Promise<Message> {
  const message = await transact(async (tx) => {
    const posted = await messages.insert(
      {
        id: uuidv7(),
        workspaceId: channel.workspaceId,
        conversationId: channel.id,
        parentMessageId: null,
        authorActorId: channel.createdByActorId,
        bodyText: 'with files',
        children: readBody('with files'),
        mentionedActorIds: [],
        assetIds: [randomUUID(), randomUUID()],
        loading: false,
      },
      tx,
    );
    await messages.softDelete(channel.workspaceId, posted!.message.id, tx);
    return posted!.message;
  });
  await db('messages')
    .where({ id: message.id })
    .update({ deleted_at: new Date(Date.now() - ago) });
  return message;
}

/** The assets a message names as stored (a deleted message's included). */
const assetIdsOf = async (m: Message) =>
  (await db('messages').where({ id: m.id }).first<{ asset_ids: string[] }>('asset_ids')).asset_ids;

describe(cleanupProcessor.name, () => {
  it('releases a batch spanning two workspaces with one call per workspace, naming it, then forgets the assets', async () => {
    const [a, b] = [await newChannel(), await newChannel()];
    const ofA = [await deletedWithAssets(a), await deletedWithAssets(a)];
    const ofB = [await deletedWithAssets(b)];
    const recent = await deletedWithAssets(a, 1000);

    expect((await sweep()).released).toBe(3);
    expect(released).toHaveLength(2);
    const byWorkspace = new Map(released.map((r) => [r.request.workspace_id, r]));
    expect(byWorkspace.get(a.workspaceId)?.request.message_ids?.sort()).toEqual(ofA.map((m) => m.id).sort());
    expect(byWorkspace.get(b.workspaceId)?.request.message_ids).toEqual(ofB.map((m) => m.id));
    for (const { request, ctx } of released) expect(ctx.workspaceId).toBe(request.workspace_id);
    for (const m of [...ofA, ...ofB]) expect(await assetIdsOf(m)).toEqual([]);
    // Within its grace the delete's own release may still be under way.
    expect(await assetIdsOf(recent)).toEqual(recent.assetIds);

    released = [];
    expect((await sweep()).released).toBe(0);
    expect(released).toEqual([]);
    await db('messages')
      .where({ id: recent.id })
      .update({ deleted_at: new Date(Date.now() - RELEASE_GRACE_MS - 60_000) });
    expect((await sweep()).released).toBe(1);
  });

  it('keeps what one workspace released when the next one fails, and releases that one at a later sweep', async () => {
    const [a, b] = [await newChannel(), await newChannel()];
    // Oldest first: a's before b's.
    const ofA = await deletedWithAssets(a, RELEASE_GRACE_MS + 120_000);
    const ofB = await deletedWithAssets(b);
    refusing.add(b.workspaceId);

    await expect(sweep()).rejects.toThrow('asset service down');
    expect(released.map((r) => r.request.workspace_id)).toEqual([a.workspaceId, b.workspaceId]);
    expect(await assetIdsOf(ofA)).toEqual([]);
    expect(await assetIdsOf(ofB)).toEqual(ofB.assetIds);

    refusing.clear();
    released = [];
    expect((await sweep()).released).toBe(1);
    expect(released.map((r) => r.request)).toEqual([{ workspace_id: b.workspaceId, message_ids: [ofB.id] }]);
    expect(await assetIdsOf(ofB)).toEqual([]);
  });
});
