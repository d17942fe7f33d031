import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, isUniqueViolation, type Knex, queryable, type Transact, transactor, type Tx } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { createRedis, keyToRead, type Redis, redisReady } from '@wms/kit/redis';
import { createStorage } from '@wms/kit/storage';
import { newTokenSecret, tokenCache, type TokenKind, tokenHash, tokenPrefixOf } from '@wms/kit/tokens';
import { uuidv7 } from '@wms/kit/ids';
import { createTestDatabase, dropRedisPrefix, emittedEvents, untimed, testRedisPrefix, testRedis } from '@wms/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import type { Role } from '../src/domain/model.ts';
import { ActorStore } from '../src/store/actor.store.ts';
import { type AvatarOwner, AvatarStore } from '../src/store/avatar.store.ts';
import { MemberStore } from '../src/store/member.store.ts';
import { OutboxStore } from '../src/store/outbox.store.ts';
import { TokenCache } from '../src/store/token-cache.ts';
import { TokenStore } from '../src/store/token.store.ts';
import { WorkspaceStore } from '../src/store/workspace.store.ts';
import { buildWorkspaceServices, buildWorkspaceStores, type WorkspaceServices } from '../src/wiring.ts';

const log = createLogger('workspace-store-test', 'silent');

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let transact: Transact;
let workspaces: WorkspaceStore;
let members: MemberStore;
let actors: ActorStore;
let avatars: AvatarStore;
let outbox: OutboxStore;
let emitted: Awaited<ReturnType<typeof emittedEvents>>;

beforeAll(async () => {
  database = await createTestDatabase('workspace', migrations);
  db = createDb({ url: database.url, schema: 'workspace', log });
  transact = transactor(db);
  ({ workspaces, members, actors, avatars, outbox } = buildWorkspaceStores(db));
  emitted = await emittedEvents(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const uniqueSlug = () => `s-${randomBytes(6).toString('hex')}`;
const byId = <T extends { id: string }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

async function newWorkspace(tx?: Tx) {
  return workspaces.insert(
    { id: randomUUID(), name: `Workspace ${randomBytes(3).toString('hex')}`, slug: uniqueSlug() },
    tx,
  );
}

async function newMember(
  workspaceId: string,
  role: Role = 'member',
  { tx, userId = randomUUID() }: { tx?: Tx; userId?: string } = {},
) {
  const actor = await actors.insert(
    { id: randomUUID(), workspaceId, kind: 'user', userId, displayName: 'Member', title: null, managedByAdmins: false },
    tx,
  );
  const member = await members.insert({ id: randomUUID(), workspaceId, userId, actorId: actor.id, role }, tx);
  return { actor, member };
}

async function newAgent(workspaceId: string, tx?: Tx) {
  return actors.insert(
    {
      id: randomUUID(),
      workspaceId,
      kind: 'agent',
      userId: null,
      displayName: 'Bot',
      title: 'Helper',
      managedByAdmins: true,
    },
    tx,
  );
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeDefined();
  return err;
}

async function domainRefusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await refusal(p);
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

/** Runs `fn` in a transaction that gives up waiting for a row lock after a short while (Postgres 55P03). */
async function withShortLockTimeout<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transact(async (tx) => {
    await queryable(db, tx).raw(`SET LOCAL lock_timeout = '150ms'`);
    return fn(tx);
  });
}
/** Moves a timestamp far into the past, so a later now() is later whatever the clock's resolution. */
const past = new Date('2001-01-01T00:00:00Z');
const backdate = (table: string, id: string, column = 'updated_at') =>
  db(table)
    .where({ id })
    .update({ [column]: past });

const lockNotAvailable = (err: unknown) => (err as { code?: string }).code === '55P03';

describe(WorkspaceStore.name, () => {
  it('inserts a workspace and reads it back as the domain type', async () => {
    const id = randomUUID();
    const slug = uniqueSlug();
    const created = await workspaces.insert({ id, name: 'Acme', slug });
    expect(created).toEqual({
      id,
      name: 'Acme',
      slug,
      avatarId: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(Object.keys(created).sort()).toEqual(['avatarId', 'createdAt', 'id', 'name', 'slug', 'updatedAt']);
    expect(await workspaces.findLive(id)).toEqual(created);
  });

  it('refuses a taken slug with slug_taken, on insert and on update', async () => {
    const first = await newWorkspace();
    const err = await domainRefusal(workspaces.insert({ id: randomUUID(), name: 'Other', slug: first.slug }));
    expect(err).toMatchObject({ kind: 'already_exists', code: 'slug_taken' });

    const second = await newWorkspace();
    const onUpdate = await domainRefusal(workspaces.update(second.id, { slug: first.slug }));
    expect(onUpdate).toMatchObject({ kind: 'already_exists', code: 'slug_taken' });
    expect((await workspaces.findLive(second.id))?.slug).toBe(second.slug);
  });

  it('does not turn other errors into slug_taken', async () => {
    const first = await newWorkspace();
    const err = await refusal(workspaces.insert({ id: first.id, name: 'Same id', slug: uniqueSlug() }));
    expect(err).not.toBeInstanceOf(DomainError);
    expect(isUniqueViolation(err, 'workspaces_pkey')).toBe(true);
  });

  it('keeps the slug of a deleted and purged workspace taken', async () => {
    const gone = await newWorkspace();
    expect(await workspaces.markDeleted(gone.id)).toBe(true);
    await workspaces.purge(gone.id);
    const err = await domainRefusal(workspaces.insert({ id: randomUUID(), name: 'Reuse', slug: gone.slug }));
    expect(err.code).toBe('slug_taken');
  });

  it('updates only the given fields and moves updated_at', async () => {
    const w = await newWorkspace();
    await backdate('workspaces', w.id);
    const renamed = await workspaces.update(w.id, { name: 'Renamed' });
    expect(renamed).toMatchObject({ id: w.id, name: 'Renamed', slug: w.slug, createdAt: w.createdAt });
    expect(renamed!.updatedAt.getTime()).toBeGreaterThan(past.getTime());
    const slug = uniqueSlug();
    expect(await workspaces.update(w.id, { slug })).toMatchObject({ name: 'Renamed', slug });
    expect(await workspaces.update(randomUUID(), { name: 'Nobody' })).toBeUndefined();
  });

  it('hides a deleted workspace from findLive, update and setAvatar, and marks it deleted only once', async () => {
    const w = await newWorkspace();
    expect(await workspaces.isDeleted(w.id)).toBe(false);
    expect(await workspaces.markDeleted(w.id)).toBe(true);
    expect(await workspaces.markDeleted(w.id)).toBe(false);
    expect(await workspaces.isDeleted(w.id)).toBe(true);
    expect(await workspaces.findLive(w.id)).toBeUndefined();
    expect(await workspaces.update(w.id, { name: 'Zombie' })).toBeUndefined();
    expect(await workspaces.setAvatar(w.id, randomUUID())).toBeUndefined();
    const [row] = await db('workspaces').where({ id: w.id }).select('name');
    expect(row.name).toBe(w.name);
  });

  it('says an unknown workspace is not deleted and cannot be marked deleted', async () => {
    const id = randomUUID();
    expect(await workspaces.isDeleted(id)).toBe(false);
    expect(await workspaces.markDeleted(id)).toBe(false);
  });

  it('sets and clears the avatar of a live workspace', async () => {
    const w = await newWorkspace();
    const avatarId = randomUUID();
    expect(await workspaces.setAvatar(w.id, avatarId)).toMatchObject({ id: w.id, avatarId });
    expect((await workspaces.findLive(w.id))?.avatarId).toBe(avatarId);
    expect(await workspaces.setAvatar(w.id, null)).toMatchObject({ id: w.id, avatarId: null });
  });

  it('lists the accepted, live workspaces of a user, oldest first then by id', async () => {
    const userId = randomUUID();
    const listed = await transact(async (tx) => {
      // One transaction: equal created_at, so the id decides.
      const ws = [await newWorkspace(tx), await newWorkspace(tx), await newWorkspace(tx)];
      for (const w of ws) await newMember(w.id, 'member', { tx, userId });
      return ws;
    });
    const oldest = await transact(async (tx) => {
      const w = await newWorkspace(tx);
      await newMember(w.id, 'owner', { tx, userId });
      return w;
    });
    await db('workspaces')
      .where({ id: oldest.id })
      .update({ created_at: new Date('2001-01-01T00:00:00Z') });

    const deleted = await newWorkspace();
    await newMember(deleted.id, 'member', { userId });
    await workspaces.markDeleted(deleted.id);

    const removedFrom = await newWorkspace();
    const { member: removed } = await newMember(removedFrom.id, 'member', { userId });
    await members.remove(removedFrom.id, removed.id);

    const pending = await newWorkspace();
    const { member: unaccepted } = await newMember(pending.id, 'member', { userId });
    await db('workspace_users').where({ id: unaccepted.id }).update({ accepted_at: null });

    const notMine = await newWorkspace();
    await newMember(notMine.id);

    const result = await workspaces.listForUser(userId);
    expect(result.map((w) => w.id)).toEqual([oldest.id, ...byId(listed).map((w) => w.id)]);
    expect(result[1]).toEqual(byId(listed)[0]);
    expect(await workspaces.listForUser(randomUUID())).toEqual([]);
  });

  it('purges only a deleted workspace: members, actors and avatars go, the row stays with no name or avatar', async () => {
    const live = await newWorkspace();
    const { actor: liveActor } = await newMember(live.id, 'owner');
    await workspaces.purge(live.id);
    expect(await workspaces.findLive(live.id)).toMatchObject({ name: live.name });
    expect(await actors.find(live.id, liveActor.id)).toBeDefined();

    const w = await newWorkspace();
    const { actor, member } = await newMember(w.id, 'owner');
    await newMember(w.id, 'admin');
    await newAgent(w.id);
    const avatarId = randomUUID();
    await avatars.insert(avatarId, { kind: 'workspace', workspaceId: w.id }, `avatars/${avatarId}`);
    await avatars.insert(
      randomUUID(),
      { kind: 'actor', workspaceId: w.id, actorId: actor.id },
      `avatars/${randomUUID()}`,
    );
    await workspaces.setAvatar(w.id, avatarId);
    const other = await newWorkspace();
    const { actor: otherActor } = await newMember(other.id, 'owner');
    await avatars.insert(randomUUID(), { kind: 'workspace', workspaceId: other.id }, 'avatars/other');

    await workspaces.markDeleted(w.id);
    await workspaces.purge(w.id);
    await workspaces.purge(w.id);

    expect(await db('workspace_users').where({ workspace_id: w.id })).toEqual([]);
    expect(await db('actors').where({ workspace_id: w.id })).toEqual([]);
    expect(await avatars.keysOfWorkspace(w.id)).toEqual([]);
    const [row] = await db('workspaces').where({ id: w.id }).select('name', 'slug', 'avatar_id', 'deleted_at');
    expect(row).toMatchObject({ name: '', slug: w.slug, avatar_id: null, deleted_at: expect.any(Date) });
    expect(await workspaces.isDeleted(w.id)).toBe(true);
    expect(await members.find(w.id, member.id)).toBeUndefined();

    expect(await actors.find(other.id, otherActor.id)).toBeDefined();
    expect(await avatars.keysOfWorkspace(other.id)).toEqual(['avatars/other']);
  });
});

describe(MemberStore.name, () => {
  it('inserts an accepted membership and maps it to the domain type', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { actor, member } = await newMember(w.id, 'admin', { userId });
    expect(member).toEqual({
      id: expect.any(String),
      workspaceId: w.id,
      userId,
      actorId: actor.id,
      role: 'admin',
      acceptedAt: expect.any(Date),
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(Object.keys(member)).not.toContain('removedAt');
    expect(await members.find(w.id, member.id)).toEqual(member);
    expect(await members.find(randomUUID(), member.id)).toBeUndefined();
  });

  it('refuses a second membership of a user as already_member, and a second owner as owner_protected', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { member } = await newMember(w.id, 'owner', { userId });
    const agent = await newAgent(w.id);
    const twice = await refusal(
      members.insert({ id: randomUUID(), workspaceId: w.id, userId, actorId: agent.id, role: 'member' }),
    );
    expect(twice).toMatchObject({ kind: 'already_exists', code: 'already_member' });
    const secondOwner = await domainRefusal(newMember(w.id, 'owner'));
    expect(secondOwner).toMatchObject({ kind: 'invalid_argument', code: 'owner_protected' });
    expect((await members.list(w.id)).map((m) => m.id)).toEqual([member.id]);
  });

  it('refuses a membership of an unknown workspace as workspace_not_found, and of an unknown actor as not_found', async () => {
    const nowhere = await domainRefusal(
      members.insert({
        id: randomUUID(),
        workspaceId: randomUUID(),
        userId: randomUUID(),
        actorId: randomUUID(),
        role: 'member',
      }),
    );
    expect(nowhere).toMatchObject({ kind: 'not_found', code: 'workspace_not_found' });
    const w = await newWorkspace();
    const noActor = await domainRefusal(
      members.insert({
        id: randomUUID(),
        workspaceId: w.id,
        userId: randomUUID(),
        actorId: randomUUID(),
        role: 'member',
      }),
    );
    expect(noActor).toMatchObject({ kind: 'not_found', code: 'not_found' });
    expect(await members.list(w.id)).toEqual([]);
  });

  it('lists active members oldest first then by id, leaving out removed ones and other workspaces', async () => {
    const w = await newWorkspace();
    const inserted = await transact(async (tx) => {
      const rows = [];
      for (const role of ['owner', 'admin', 'member', 'member'] as const)
        rows.push((await newMember(w.id, role, { tx })).member);
      return rows;
    });
    const sorted = byId(inserted);
    const newest = sorted[0]!;
    await db('workspace_users')
      .where({ id: newest.id })
      .update({ created_at: new Date(Date.now() + 60_000) });
    const removed = sorted[1]!;
    await members.remove(w.id, removed.id);
    const other = await newWorkspace();
    await newMember(other.id, 'owner');

    const listed = await members.list(w.id);
    expect(listed.map((m) => m.id)).toEqual([...sorted.slice(2).map((m) => m.id), newest.id]);
    expect(await members.activeUserIds(w.id)).toEqual(listed.map((m) => m.userId).sort());
  });

  it('removes a membership once; the row stays but is no longer found, listed or changeable', async () => {
    const w = await newWorkspace();
    const { member } = await newMember(w.id);
    expect(await members.remove(randomUUID(), member.id)).toBeUndefined();
    const removed = await members.remove(w.id, member.id);
    expect(removed).toMatchObject({ id: member.id, role: 'member' });
    expect(await members.remove(w.id, member.id)).toBeUndefined();
    expect(await members.find(w.id, member.id)).toBeUndefined();
    expect(await members.setRole(w.id, member.id, 'admin')).toBeUndefined();
    expect(await members.activeUserIds(w.id)).toEqual([]);
    const [row] = await db('workspace_users').where({ id: member.id }).select('removed_at', 'role');
    expect(row).toMatchObject({ removed_at: expect.any(Date), role: 'member' });
  });

  it('finds any membership of a user, removed or not, and reactivates it with the same id and actor', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { member } = await newMember(w.id, 'member', { userId });
    expect(await transact((tx) => members.findAnyByUserForUpdate(w.id, userId, tx))).toEqual({
      ...member,
      removed: false,
    });
    await members.remove(w.id, member.id);
    const found = await transact((tx) => members.findAnyByUserForUpdate(w.id, userId, tx));
    expect(found).toMatchObject({ id: member.id, actorId: member.actorId, removed: true });
    expect(await transact((tx) => members.findAnyByUserForUpdate(w.id, randomUUID(), tx))).toBeUndefined();
    expect(await transact((tx) => members.findAnyByUserForUpdate(randomUUID(), userId, tx))).toBeUndefined();

    await backdate('workspace_users', member.id, 'accepted_at');
    expect(await members.reactivate(randomUUID(), member.id, 'admin')).toBeUndefined();
    expect(await members.find(w.id, member.id)).toBeUndefined();
    const back = await transact((tx) => members.reactivate(w.id, member.id, 'admin', tx));
    expect(back).toMatchObject({ id: member.id, actorId: member.actorId, userId, role: 'admin' });
    expect(back!.acceptedAt!.getTime()).toBeGreaterThan(past.getTime());
    expect(await members.find(w.id, member.id)).toEqual(back);
  });

  it('holds the row lock of findAnyByUserForUpdate until the transaction ends', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    await newMember(w.id, 'member', { userId });
    await transact(async (holder) => {
      expect(await members.findAnyByUserForUpdate(w.id, userId, holder)).toBeDefined();
      const blocked = await refusal(withShortLockTimeout((tx) => members.findAnyByUserForUpdate(w.id, userId, tx)));
      expect(lockNotAvailable(blocked)).toBe(true);
      // A plain read is not blocked.
      expect(await members.findAccepted(w.id, userId)).toBeDefined();
    });
    expect(await withShortLockTimeout((tx) => members.findAnyByUserForUpdate(w.id, userId, tx))).toBeDefined();
  });

  it('finds an accepted membership only while it is active and its workspace is live', async () => {
    const w = await newWorkspace();
    const { member } = await newMember(w.id);
    expect(await members.findAccepted(w.id, member.userId)).toEqual(member);
    expect(await members.findAccepted(randomUUID(), member.userId)).toBeUndefined();

    const { member: pending } = await newMember(w.id);
    await db('workspace_users').where({ id: pending.id }).update({ accepted_at: null });
    expect(await members.findAccepted(w.id, pending.userId)).toBeUndefined();

    const { member: leaving } = await newMember(w.id);
    await members.remove(w.id, leaving.id);
    expect(await members.findAccepted(w.id, leaving.userId)).toBeUndefined();

    await workspaces.markDeleted(w.id);
    expect(await members.findAccepted(w.id, member.userId)).toBeUndefined();
  });

  it('changes a role within its workspace only', async () => {
    const w = await newWorkspace();
    const { member } = await newMember(w.id);
    await backdate('workspace_users', member.id);
    expect(await members.setRole(randomUUID(), member.id, 'admin')).toBeUndefined();
    const changed = await members.setRole(w.id, member.id, 'admin');
    expect(changed).toMatchObject({ id: member.id, role: 'admin' });
    expect(changed!.updatedAt.getTime()).toBeGreaterThan(past.getTime());
  });

  it('transfers ownership when the old owner steps down first in the same transaction', async () => {
    const w = await newWorkspace();
    const { member: owner } = await newMember(w.id, 'owner');
    const { member: heir } = await newMember(w.id, 'admin');
    const blocked = await domainRefusal(members.setRole(w.id, heir.id, 'owner'));
    expect(blocked).toMatchObject({ kind: 'invalid_argument', code: 'owner_protected' });
    expect((await members.find(w.id, heir.id))?.role).toBe('admin');
    await transact(async (tx) => {
      await members.setRole(w.id, owner.id, 'admin', tx);
      await members.setRole(w.id, heir.id, 'owner', tx);
    });
    const roles = Object.fromEntries((await members.list(w.id)).map((m) => [m.id, m.role]));
    expect(roles).toEqual({ [owner.id]: 'admin', [heir.id]: 'owner' });
  });

  it('locks the given active members and the owner, in id order', async () => {
    const w = await newWorkspace();
    const { member: owner } = await newMember(w.id, 'owner');
    const a = (await newMember(w.id, 'admin')).member;
    const b = (await newMember(w.id)).member;
    const untouched = (await newMember(w.id)).member;
    const gone = (await newMember(w.id)).member;
    await members.remove(w.id, gone.id);
    const other = await newWorkspace();
    const foreign = (await newMember(other.id, 'owner')).member;

    const lockRow = (id: string) =>
      withShortLockTimeout((tx) => queryable(db, tx)('workspace_users').where({ id }).forUpdate().first('id'));
    await transact(async (holder) => {
      const locked = await members.lockMembers(w.id, [a.id, b.id, gone.id, foreign.id], holder);
      expect(locked.map((m) => m.id)).toEqual(byId([owner, a, b]).map((m) => m.id));
      expect(locked.find((m) => m.id === owner.id)).toEqual(owner);

      for (const id of [owner.id, a.id, b.id]) expect(lockNotAvailable(await refusal(lockRow(id)))).toBe(true);
      for (const id of [untouched.id, foreign.id]) expect(await lockRow(id)).toEqual({ id });
    });
    expect(await transact((tx) => members.lockMembers(w.id, [], tx)).then((rows) => rows.map((m) => m.id))).toEqual([
      owner.id,
    ]);
  });
});

describe(ActorStore.name, () => {
  it('inserts user and agent actors and reads them back as the domain type', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { actor } = await newMember(w.id, 'member', { userId });
    expect(actor).toEqual({
      id: expect.any(String),
      workspaceId: w.id,
      kind: 'user',
      userId,
      displayName: 'Member',
      title: null,
      avatarId: null,
      managedByAdmins: false,
      deactivatedAt: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    const agent = await newAgent(w.id);
    expect(agent).toMatchObject({ kind: 'agent', userId: null, title: 'Helper', managedByAdmins: true });
    expect(await actors.find(w.id, actor.id)).toEqual(actor);
    expect(await actors.find(w.id, agent.id)).toEqual(agent);
    expect(await actors.find(randomUUID(), actor.id)).toBeUndefined();
  });

  it('refuses a second actor of the same user in a workspace as already_member', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    await newMember(w.id, 'member', { userId });
    const err = await refusal(
      actors.insert({
        id: randomUUID(),
        workspaceId: w.id,
        kind: 'user',
        userId,
        displayName: 'Twin',
        title: null,
        managedByAdmins: false,
      }),
    );
    expect(err).toMatchObject({ kind: 'already_exists', code: 'already_member' });
    const elsewhere = await newWorkspace();
    expect(
      await actors.insert({
        id: randomUUID(),
        workspaceId: elsewhere.id,
        kind: 'user',
        userId,
        displayName: 'Same user',
        title: null,
        managedByAdmins: false,
      }),
    ).toMatchObject({ userId });
  });

  it('reads many actors of one workspace in one call, in id order, leaving out unknown ids and other workspaces', async () => {
    const w = await newWorkspace();
    const mine = await transact(async (tx) => {
      const rows = [];
      for (let i = 0; i < 150; i++)
        rows.push(
          i % 3 === 0 ? (await newMember(w.id, i === 0 ? 'owner' : 'member', { tx })).actor : await newAgent(w.id, tx),
        );
      return rows;
    });
    const other = await newWorkspace();
    const foreign = await newAgent(other.id);
    const ids = [...mine.map((a) => a.id), foreign.id, randomUUID(), mine[0]!.id];
    const found = await actors.findMany(w.id, ids);
    expect(found).toEqual(byId(mine));
    expect(await actors.findMany(w.id, [])).toEqual([]);
    expect(await actors.findMany(other.id, ids)).toEqual([foreign]);
  });

  it('lists every actor of a workspace, deactivated ones included, oldest first then by id', async () => {
    const w = await newWorkspace();
    const inserted = await transact(async (tx) => [
      await newAgent(w.id, tx),
      await newAgent(w.id, tx),
      await newAgent(w.id, tx),
      (await newMember(w.id, 'owner', { tx })).actor,
    ]);
    const sorted = byId(inserted);
    const oldest = sorted.at(-1)!;
    await db('actors')
      .where({ id: oldest.id })
      .update({ created_at: new Date('2001-01-01T00:00:00Z') });
    const deactivated = sorted[0]!;
    await actors.setDeactivated(w.id, deactivated.id, true);
    await newAgent((await newWorkspace()).id);

    const listed = await actors.list(w.id);
    expect(listed.map((a) => a.id)).toEqual([oldest.id, ...sorted.slice(0, -1).map((a) => a.id)]);
    expect(listed.find((a) => a.id === deactivated.id)?.deactivatedAt).toBeInstanceOf(Date);
  });

  it('keeps the actors whose display name contains q, case-insensitively and literally (% _ \\ too), those starting with it first (property)', async () => {
    const unit = fc.constantFrom('a', 'B', 'c', '%', '_', '\\', ' ');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit, minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.string({ unit, minLength: 1, maxLength: 3 }),
        async (names, q) => {
          const w = await newWorkspace();
          for (const displayName of names)
            await actors.insert({
              id: randomUUID(),
              workspaceId: w.id,
              kind: 'agent',
              userId: null,
              displayName,
              title: null,
              managedByAdmins: true,
            });
          const all = (await actors.list(w.id)).map((a) => a.displayName);
          const has = (name: string) => name.toLowerCase().includes(q.toLowerCase());
          const starts = (name: string) => name.toLowerCase().startsWith(q.toLowerCase());
          const expected = [...all.filter((n) => has(n) && starts(n)), ...all.filter((n) => has(n) && !starts(n))];
          expect((await actors.list(w.id, q)).map((a) => a.displayName)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers the picker of a large workspace through the trigram index', async () => {
    // Large enough that reading every actor of the workspace costs more than the index.
    const w = await newWorkspace();
    await untimed(
      db,
      `INSERT INTO actors (id, workspace_id, kind, display_name, managed_by_admins)
       SELECT gen_random_uuid(), ?, 'agent', 'agent ' || md5(i::text), true FROM generate_series(1, 50000) i`,
      [w.id],
    );
    await db.raw('ANALYZE actors');
    let statement: { sql: string; bindings: unknown[] } | undefined;
    const capture = (q: { sql: string; bindings: unknown[] }) => (statement = q);
    db.on('query', capture);
    try {
      expect(await actors.list(w.id, 'zqxj')).toEqual([]);
    } finally {
      db.off('query', capture);
    }
    // The event shows the statement as sent, with $n placeholders, its bindings in their order.
    const { rows } = await db.raw(
      `EXPLAIN (FORMAT JSON) ${statement!.sql.replace(/\$\d+/g, '?')}`,
      statement!.bindings as never,
    );
    expect(JSON.stringify(rows[0]['QUERY PLAN'])).toContain('"Index Name":"actors_display_name_trgm_idx"');
  });

  it('deactivates and reactivates an actor', async () => {
    const w = await newWorkspace();
    const { actor } = await newMember(w.id);
    await backdate('actors', actor.id);
    const off = await actors.setDeactivated(w.id, actor.id, true);
    expect(off!.deactivatedAt).toBeInstanceOf(Date);
    expect(off!.updatedAt.getTime()).toBeGreaterThan(past.getTime());
    expect(await actors.find(w.id, actor.id)).toEqual(off);
    expect(await actors.setDeactivated(w.id, actor.id, false)).toEqual({
      ...off,
      deactivatedAt: null,
      updatedAt: expect.any(Date),
    });
    expect((await actors.find(w.id, actor.id))!.deactivatedAt).toBeNull();
  });

  it('deactivates an actor within its workspace only', async () => {
    const w = await newWorkspace();
    const { actor } = await newMember(w.id);
    expect(await actors.setDeactivated(randomUUID(), actor.id, true)).toBeUndefined();
    expect((await actors.find(w.id, actor.id))!.deactivatedAt).toBeNull();
  });

  it('refuses an actor of an unknown workspace as workspace_not_found', async () => {
    const err = await domainRefusal(
      actors.insert({
        id: randomUUID(),
        workspaceId: randomUUID(),
        kind: 'agent',
        userId: null,
        displayName: 'Bot',
        title: null,
        managedByAdmins: true,
      }),
    );
    expect(err).toMatchObject({ kind: 'not_found', code: 'workspace_not_found' });
  });

  it('updates the given profile fields within the workspace only', async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    await backdate('actors', agent.id);
    expect(await actors.update(randomUUID(), agent.id, { displayName: 'Hijack' })).toBeUndefined();
    const renamed = await actors.update(w.id, agent.id, { displayName: 'Renamed' });
    expect(renamed).toMatchObject({ displayName: 'Renamed', title: 'Helper' });
    expect(renamed!.updatedAt.getTime()).toBeGreaterThan(past.getTime());
    expect(await actors.update(w.id, agent.id, { title: null })).toMatchObject({ displayName: 'Renamed', title: null });
    expect(await actors.update(w.id, randomUUID(), { title: 'x' })).toBeUndefined();
    expect((await actors.find(w.id, agent.id))!.displayName).toBe('Renamed');
  });

  it('sets and clears the avatar of an actor within its workspace only', async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    const avatarId = randomUUID();
    expect(await actors.setAvatar(randomUUID(), agent.id, avatarId)).toBeUndefined();
    expect(await actors.setAvatar(w.id, agent.id, avatarId)).toMatchObject({ id: agent.id, avatarId });
    expect(await actors.setAvatar(w.id, agent.id, null)).toMatchObject({ id: agent.id, avatarId: null });
  });
});

describe(AvatarStore.name, () => {
  it('finds an avatar only under the owner it was stored for', async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    const workspaceOwner: AvatarOwner = { kind: 'workspace', workspaceId: w.id };
    const actorOwner: AvatarOwner = { kind: 'actor', workspaceId: w.id, actorId: agent.id };
    const wid = randomUUID();
    const aid = randomUUID();
    await avatars.insert(wid, workspaceOwner, `avatars/${wid}`);
    await avatars.insert(aid, actorOwner, `avatars/${aid}`);

    expect(await avatars.find(workspaceOwner, wid)).toEqual({ id: wid, storageKey: `avatars/${wid}` });
    expect(await avatars.find(actorOwner, aid)).toEqual({ id: aid, storageKey: `avatars/${aid}` });
    expect(await avatars.find(actorOwner, wid)).toBeUndefined();
    expect(await avatars.find(workspaceOwner, aid)).toBeUndefined();
    expect(await avatars.find({ kind: 'actor', workspaceId: w.id, actorId: randomUUID() }, aid)).toBeUndefined();
    const other = await newWorkspace();
    expect(await avatars.find({ kind: 'workspace', workspaceId: other.id }, wid)).toBeUndefined();
  });

  it('deletes the other avatars of an owner and returns their storage keys', async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    const owner: AvatarOwner = { kind: 'actor', workspaceId: w.id, actorId: agent.id };
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await avatars.insert(id, owner, `avatars/${id}`);
    const workspaceAvatar = randomUUID();
    await avatars.insert(workspaceAvatar, { kind: 'workspace', workspaceId: w.id }, `avatars/${workspaceAvatar}`);
    const otherAgent = await newAgent(w.id);
    const otherAvatar = randomUUID();
    await avatars.insert(
      otherAvatar,
      { kind: 'actor', workspaceId: w.id, actorId: otherAgent.id },
      `avatars/${otherAvatar}`,
    );

    const keep = ids[1]!;
    const stale = await transact((tx) => avatars.deleteOthers(owner, keep, tx));
    expect(stale.sort()).toEqual([ids[0]!, ids[2]!].map((id) => `avatars/${id}`).sort());
    expect(await avatars.find(owner, keep)).toEqual({ id: keep, storageKey: `avatars/${keep}` });
    expect(await avatars.find(owner, ids[0]!)).toBeUndefined();

    expect(await transact((tx) => avatars.deleteOthers(owner, null, tx))).toEqual([`avatars/${keep}`]);
    expect(await avatars.find(owner, keep)).toBeUndefined();
    expect(await transact((tx) => avatars.deleteOthers(owner, null, tx))).toEqual([]);

    expect((await avatars.keysOfWorkspace(w.id)).sort()).toEqual(
      [`avatars/${workspaceAvatar}`, `avatars/${otherAvatar}`].sort(),
    );
  });

  it('lists the keys of a workspace oldest first, then by id', async () => {
    const w = await newWorkspace();
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: w.id };
    const [oldest, ...sameTime] = [randomUUID(), randomUUID(), randomUUID()];
    // One transaction: equal created_at, so the id decides.
    await transact(async (tx) => {
      for (const id of [oldest, ...sameTime]) await avatars.insert(id, owner, `avatars/${id}`, tx);
    });
    await backdate('avatars', oldest, 'created_at');
    expect(await avatars.keysOfWorkspace(w.id)).toEqual([oldest, ...sameTime.sort()].map((id) => `avatars/${id}`));
  });

  it('refuses an avatar of an unknown workspace as workspace_not_found', async () => {
    const err = await domainRefusal(
      avatars.insert(randomUUID(), { kind: 'workspace', workspaceId: randomUUID() }, 'avatars/nowhere'),
    );
    expect(err).toMatchObject({ kind: 'not_found', code: 'workspace_not_found' });
  });

  it('takes back an insert when the transaction rolls back', async () => {
    const w = await newWorkspace();
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: w.id };
    const id = randomUUID();
    const err = await refusal(
      transact(async (tx) => {
        await avatars.insert(id, owner, `avatars/${id}`, tx);
        expect(await queryable(db, tx)('avatars').where({ id }).first('id')).toEqual({ id });
        throw new Error('abort');
      }),
    );
    expect((err as Error).message).toBe('abort');
    expect(await avatars.find(owner, id)).toBeUndefined();
  });
});

describe(TokenStore.name, () => {
  const tokens = () => new TokenStore(db);
  /** A token of the agent, with its secret; conversation tokens name a conversation. */
  async function newToken(
    workspaceId: string,
    actorId: string,
    kind: TokenKind = 'workspace',
    createdBy = randomUUID(),
  ) {
    const secret = newTokenSecret(kind);
    const token = await tokens().insert({
      id: uuidv7(),
      kind,
      workspaceId,
      conversationId: kind === 'conversation' ? randomUUID() : null,
      actorId,
      name: `token ${kind}`,
      tokenPrefix: tokenPrefixOf(secret),
      secretSha256: tokenHash(secret),
      createdByActorId: createdBy,
    });
    return { secret, token };
  }

  it('keeps the SHA-256 of a secret and its prefix, never the secret, and finds the token by it', async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    const { secret, token } = await newToken(w.id, agent.id);
    expect(token).toEqual({
      id: expect.any(String),
      kind: 'workspace',
      workspaceId: w.id,
      conversationId: null,
      actorId: agent.id,
      name: 'token workspace',
      tokenPrefix: secret.slice(0, 12),
      createdByActorId: expect.any(String),
      createdAt: expect.any(Date),
      lastUsedAt: null,
      revokedAt: null,
    });
    const stored = JSON.stringify(await db('tokens').where({ id: token.id }).first());
    expect(stored).not.toContain(secret.slice(12));
    expect(await tokens().findUsable(tokenHash(secret))).toEqual(token);
    expect(await tokens().findUsable(tokenHash(newTokenSecret('workspace')))).toBeUndefined();
    // A conversation token names its conversation; a workspace token none.
    await expect(
      db('tokens').insert({
        ...(await db('tokens').where({ id: token.id }).first()),
        id: randomUUID(),
        secret_sha256: randomBytes(32),
        kind: 'conversation',
      }),
    ).rejects.toThrow(/check constraint/);
  });

  it("lists a workspace's tokens or one conversation's, newest first, revoked ones included, never another workspace's", async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    const a = (await newToken(w.id, agent.id)).token;
    const b = (await newToken(w.id, agent.id, 'conversation')).token;
    const c = (await newToken(w.id, agent.id)).token;
    await db('tokens')
      .where({ id: a.id })
      .update({ created_at: new Date('2001-01-01T00:00:00Z') });
    await tokens().revoke(w.id, c.id);
    const other = await newWorkspace();
    await newToken(other.id, (await newAgent(other.id)).id);
    expect((await tokens().list(w.id)).map((t) => t.id)).toEqual([
      ...byId([b, c])
        .reverse()
        .map((t) => t.id),
      a.id,
    ]);
    expect((await tokens().list(w.id, b.conversationId!)).map((t) => t.id)).toEqual([b.id]);
    expect(await tokens().list(other.id, b.conversationId!)).toEqual([]);
    expect(await tokens().list('not-a-uuid')).toEqual([]);
  });

  it('revokes once (a second revocation keeps the first time), within its workspace only; a revoked token is not usable', async () => {
    const w = await newWorkspace();
    const { secret, token } = await newToken(w.id, (await newAgent(w.id)).id);
    expect(await tokens().revoke((await newWorkspace()).id, token.id)).toBeUndefined();
    expect(await tokens().findUsable(tokenHash(secret))).toEqual(token);
    const revoked = await tokens().revoke(w.id, token.id);
    expect(revoked!.revokedAt).toBeInstanceOf(Date);
    expect(await tokens().revoke(w.id, token.id)).toEqual(revoked);
    expect(await tokens().findUsable(tokenHash(secret))).toBeUndefined();
    expect(await tokens().revoke(w.id, randomUUID())).toBeUndefined();
  });

  it('is not usable once its agent is deactivated or its workspace deleted, and goes with the purge', async () => {
    const w = await newWorkspace();
    const agent = await newAgent(w.id);
    const { secret, token } = await newToken(w.id, agent.id);
    await actors.setDeactivated(w.id, agent.id, true);
    expect(await tokens().findUsable(tokenHash(secret))).toBeUndefined();
    await actors.setDeactivated(w.id, agent.id, false);
    expect(await tokens().findUsable(tokenHash(secret))).toEqual(token);
    expect(await workspaces.markDeleted(w.id)).toBe(true);
    expect(await tokens().findUsable(tokenHash(secret))).toBeUndefined();
    await workspaces.purge(w.id);
    expect(await db('tokens').where({ id: token.id })).toEqual([]);
  });

  it('records a use at most once a minute, never moving back', async () => {
    const w = await newWorkspace();
    const { token } = await newToken(w.id, (await newAgent(w.id)).id);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, s));
    const lastUsed = async () =>
      (await db('tokens').where({ id: token.id }).first('last_used_at')).last_used_at as Date | null;
    expect(await tokens().touch([token.id, 'not-a-uuid'], at(0))).toBe(1);
    expect(await tokens().touch([token.id], at(59))).toBe(0);
    expect(await lastUsed()).toEqual(at(0));
    expect(await tokens().touch([token.id], new Date(at(0).getTime() + 61_000))).toBe(1);
    expect(await tokens().touch([token.id], at(0))).toBe(0);
    expect(await lastUsed()).toEqual(new Date(at(0).getTime() + 61_000));
  });
});

describe(OutboxStore.name, () => {
  const outboxOf = (workspaceId: string) => emitted.read(workspaceId);

  it('stores each event on its workspace channel, the resource as the HTTP API shows it', async () => {
    const w = await newWorkspace();
    const { actor, member } = await newMember(w.id, 'admin');
    const user = { id: member.userId, email: 'member@example.com', name: 'Member' };
    await transact((tx) =>
      outbox.append(
        [
          { type: 'workspace.updated', workspace: w },
          { type: 'actor.updated', actor },
          { type: 'workspace_user.added', member: { ...member, user } },
          { type: 'workspace_user.updated', member: { ...member, user } },
          { type: 'workspace_user.removed', member: { ...member, user } },
        ],
        tx,
      ),
    );
    const rows = await outboxOf(w.id);
    expect(rows.map((r) => [r.channel, r.event])).toEqual(
      [
        'workspace.updated',
        'actor.updated',
        'workspace_user.added',
        'workspace_user.updated',
        'workspace_user.removed',
      ].map((event) => [`private-workspace-${w.id}`, event]),
    );
    const eventIds = rows.map((r) => r.payload.event_id);
    expect(new Set(eventIds).size).toBe(5);
    for (const id of eventIds)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const iso = (d: Date) => d.toISOString();
    expect(rows[0]!.payload).toEqual({
      event_id: eventIds[0],
      workspace: {
        id: w.id,
        name: w.name,
        slug: w.slug,
        avatar_id: null,
        created_at: iso(w.createdAt),
        updated_at: iso(w.updatedAt),
      },
    });
    expect(rows[1]!.payload).toEqual({
      event_id: eventIds[1],
      actor: {
        id: actor.id,
        workspace_id: w.id,
        kind: 'user',
        user_id: member.userId,
        display_name: 'Member',
        title: null,
        avatar_id: null,
        managed_by_admins: false,
        deactivated_at: null,
        created_at: iso(actor.createdAt),
        updated_at: iso(actor.updatedAt),
      },
    });
    expect(rows[2]!.payload).toEqual({
      event_id: eventIds[2],
      workspace_user: {
        id: member.id,
        workspace_id: w.id,
        user_id: member.userId,
        actor_id: actor.id,
        role: 'admin',
        accepted_at: iso(member.acceptedAt!),
        created_at: iso(member.createdAt),
        updated_at: iso(member.updatedAt),
        user,
      },
    });
  });

  it("writes into the change's transaction: an event exists once it commits, and never after a rollback", async () => {
    const w = await newWorkspace();
    await expect(
      transact(async (tx) => {
        await outbox.append([{ type: 'workspace.updated', workspace: { ...w, name: 'rolled back' } }], tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await transact((tx) => outbox.append([{ type: 'workspace.updated', workspace: w }], tx));
    expect(
      (await outboxOf(w.id)).map((r) => [r.source, r.event, (r.payload.workspace as { name: string }).name]),
    ).toEqual([['workspace', 'workspace.updated', w.name]]);
  });
});

describe('services built by wiring', () => {
  const owner = { id: randomUUID(), email: `owner-${randomUUID()}@example.com`, name: 'Owner' };
  const other = { id: randomUUID(), email: `other-${randomUUID()}@example.com`, name: 'Other' };
  const account = (u: typeof owner) => ({
    ...u,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  });
  const prefix = testRedisPrefix();
  let redis: Redis;
  let storageDir: string;
  let services: WorkspaceServices;

  beforeAll(async () => {
    redis = createRedis(testRedis, prefix, log);
    // Fail-fast client (no offline queue): the first test must not race its connection.
    await redisReady(redis);
    storageDir = await mkdtemp(path.join(tmpdir(), 'workspace-test-'));
    const refuse = () => Promise.reject(new Error('not in this test'));
    services = buildWorkspaceServices({
      db,
      redis,
      storage: createStorage({
        driver: 'fs',
        dir: storageDir,
        publicUrl: 'http://127.0.0.1',
        secret: randomBytes(32).toString('hex'),
      }),
      identity: {
        GetUsersByIds: async ({ ids = [] }) => ({
          users: [owner, other].filter((u) => ids.includes(u.id)).map(account),
        }),
        FindUserByEmail: async ({ email }) => ({
          user: [owner, other].map(account).find((u) => u.email === email) ?? null,
        }),
        SendInvitationMail: refuse,
        CreateInvitedAccount: refuse,
      },
      messaging: { AdmitAgent: refuse, ReadableConversations: refuse },
      resizer: { resize: refuse },
      purges: { schedule: refuse },
      invitationMailsPerHour: 100,
    });
  });

  afterAll(async () => {
    await redis?.quit();
    await dropRedisPrefix(testRedis, prefix);
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  const events = async (workspaceId: string) =>
    (await emitted.read(workspaceId)).map((r) => {
      const p = r.payload as Record<string, Record<string, unknown>>;
      return [r.event, p.workspace_user?.id ?? p.actor?.id ?? p.workspace?.id];
    });

  it("records each change to a workspace, its members and actors in the change's transaction, and none for a refused one", async () => {
    const created = await services.workspaces.createWorkspace(
      { requestId: randomUUID(), userId: owner.id },
      { name: 'Events', slug: uniqueSlug() },
    );
    const ctx = { requestId: randomUUID(), userId: owner.id, workspaceId: created.id };
    const me = (await members.findAccepted(created.id, owner.id))!;
    expect(await events(created.id)).toEqual([]);

    await services.workspaces.updateWorkspace(ctx, { name: 'Renamed' });
    await expect(services.workspaces.updateWorkspace(ctx, { slug: (await newWorkspace()).slug })).rejects.toMatchObject(
      { code: 'slug_taken' },
    );
    const added = await services.members.addWorkspaceUser(ctx, { email: other.email });
    await services.members.updateWorkspaceUserRole(ctx, { workspaceUserId: added.id, role: 'admin' });
    await services.actors.updateActor(ctx, me.actorId, { title: 'Boss' });
    const agent = await services.actors.createAgentActor(ctx, { displayName: 'Bot' });
    await services.avatars.deleteWorkspaceAvatar(ctx);
    await services.avatars.deleteActorAvatar(ctx, agent.id);
    await services.members.transferOwnership(ctx, { workspaceUserId: added.id });
    await services.members.removeWorkspaceUser(ctx, { workspaceUserId: me.id });

    expect(await events(created.id)).toEqual([
      ['workspace.updated', created.id],
      ['actor.updated', added.actorId],
      ['workspace_user.added', added.id],
      ['workspace_user.updated', added.id],
      ['actor.updated', me.actorId],
      ['actor.updated', agent.id],
      ['workspace.updated', created.id],
      ['actor.updated', agent.id],
      ['workspace_user.updated', me.id],
      ['workspace_user.updated', added.id],
      ['workspace_user.removed', me.id],
      ['actor.updated', me.actorId],
    ]);
    const payloads = (await emitted.read(created.id)).map((e) => e.payload as Record<string, Record<string, unknown>>);
    expect(payloads[0]!.workspace).toMatchObject({ name: 'Renamed' });
    expect(payloads[2]!.workspace_user).toMatchObject({
      role: 'member',
      user: { id: other.id, email: other.email, name: 'Other' },
    });
    expect(payloads[3]!.workspace_user).toMatchObject({ role: 'admin', user: { id: other.id } });
    expect(payloads[4]!.actor).toMatchObject({ title: 'Boss' });
    expect(payloads[8]!.workspace_user).toMatchObject({ role: 'admin', user: { id: owner.id, email: owner.email } });
    expect(payloads[9]!.workspace_user).toMatchObject({ role: 'owner', user: { id: other.id } });
    expect(payloads[10]!.workspace_user).toMatchObject({ id: me.id, user: { id: owner.id } });
    expect(payloads[11]!.actor).toMatchObject({ id: me.actorId, deactivated_at: expect.any(String) });
  });

  it('records the reactivation of a removed member as its actor and membership coming back', async () => {
    const created = await services.workspaces.createWorkspace(
      { requestId: randomUUID(), userId: owner.id },
      { name: 'Again', slug: uniqueSlug() },
    );
    const ctx = { requestId: randomUUID(), userId: owner.id, workspaceId: created.id };
    const first = await services.members.addWorkspaceUser(ctx, { email: other.email });
    await services.members.removeWorkspaceUser(ctx, { workspaceUserId: first.id });
    const again = await services.members.addWorkspaceUser(ctx, { email: other.email, role: 'admin' });
    expect(again.id).toBe(first.id);
    expect((await events(created.id)).slice(-2)).toEqual([
      ['actor.updated', first.actorId],
      ['workspace_user.added', first.id],
    ]);
    const payloads = (await emitted.read(created.id)).map((e) => e.payload as Record<string, Record<string, unknown>>);
    expect(payloads.at(-2)!.actor).toMatchObject({ deactivated_at: null });
    expect(payloads.at(-1)!.workspace_user).toMatchObject({ role: 'admin' });
  });
  it("ends tokens in the gateway's cache before a revocation, a deactivation or a deletion commits, and a failed change leaves them", async () => {
    const created = await services.workspaces.createWorkspace(
      { requestId: randomUUID(), userId: owner.id },
      { name: 'Tokens', slug: uniqueSlug() },
    );
    const ctx = { requestId: randomUUID(), userId: owner.id, workspaceId: created.id };
    // The name the gateway reads (kit's keyToRead); every change writes both names.
    const readKey = (secret: string) =>
      keyToRead(redis, tokenCache.key(tokenHash(secret)), tokenCache.previousKey(tokenHash(secret)));
    const cached = async (secret: string) => redis.get(readKey(secret));
    const agent = await services.actors.createAgentActor(ctx, { displayName: 'Bot' });
    const [revoked, kept, ofDeactivated, ofDeleted] = await Promise.all(
      [1, 2, 3, 4].map(() => services.tokens.createWorkspaceToken(ctx, { actorId: agent.id, name: 'bot' })),
    );
    // A usable entry, as the gateway fills it.
    for (const t of [revoked!, kept!])
      await redis.set(readKey(t.secret), tokenCache.encode({ ...t, conversationId: null }));

    await services.tokens.revokeToken(ctx, revoked!.id);
    expect(await cached(revoked!.secret)).toBe(tokenCache.tombstone);
    // Under both names, for the previous release's gateways during a rollout.
    const hash = tokenHash(revoked!.secret);
    expect([await redis.get(tokenCache.key(hash)), await redis.get(tokenCache.previousKey(hash))]).toEqual([
      tokenCache.tombstone,
      tokenCache.tombstone,
    ]);
    expect(tokenCache.decode(await cached(kept!.secret))).toMatchObject({ id: kept!.id });
    expect(await services.tokens.resolve(tokenHash(revoked!.secret))).toBeUndefined();
    expect(await services.tokens.resolve(tokenHash(kept!.secret))).toMatchObject({ id: kept!.id });

    // An agent acts as itself where a member may; not once deactivated.
    const asAgent = { requestId: randomUUID(), workspaceId: created.id, actorId: agent.id, tokenId: kept!.id };
    expect(await services.workspaces.getWorkspace(asAgent)).toMatchObject({ id: created.id });
    await expect(services.tokens.listWorkspaceTokens(asAgent)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      services.actors.deactivateAgent(ctx, (await members.findAccepted(created.id, owner.id))!.actorId),
    ).rejects.toMatchObject({ code: 'forbidden' });
    // A change that fails after its tombstones were written drops them (the token is still usable, so the next lookup fills it again).
    await redis.set(readKey(kept!.secret), tokenCache.encode({ ...kept!, conversationId: null }));
    const commitFails: Transact = async (work) => {
      await transactor(db)(work);
      throw new Error('commit failed');
    };
    const failing = new TokenCache(redis, commitFails);
    await expect(failing.ending(async () => ({ result: undefined, ended: [tokenHash(kept!.secret)] }))).rejects.toThrow(
      'commit failed',
    );
    expect(await cached(kept!.secret)).toBeNull();

    const deactivated = await services.actors.deactivateAgent(ctx, agent.id);
    expect(deactivated.deactivatedAt).toEqual(expect.any(Date));
    for (const t of [kept!, ofDeactivated!]) expect(await cached(t.secret)).toBe(tokenCache.tombstone);
    expect(await services.tokens.resolve(tokenHash(kept!.secret))).toBeUndefined();
    await expect(services.workspaces.getWorkspace(asAgent)).rejects.toMatchObject({ code: 'workspace_not_found' });
    expect((await services.actors.deactivateAgent(ctx, agent.id)).deactivatedAt).toEqual(deactivated.deactivatedAt);

    const other = await services.actors.createAgentActor(ctx, { displayName: 'Other bot' });
    const last = await services.tokens.createWorkspaceToken(ctx, { actorId: other.id, name: 'bot' });
    await redis.del(readKey(ofDeleted!.secret));
    // The purge is scheduled after the commit; this test's scheduler refuses, which the deletion reports.
    await expect(services.workspaces.deleteWorkspace(ctx)).rejects.toThrow('not in this test');
    expect(await cached(last.secret)).toBe(tokenCache.tombstone);
    expect(await services.tokens.resolve(tokenHash(last.secret))).toBeUndefined();
  });
});

describe('malformed ids', () => {
  // Ids reach the stores from callers; one that is not a lowercase uuid names no row, answered before Postgres would
  // fail with 22P02 (and abort a surrounding transaction).
  const bad = 'not-a-uuid';

  it('match no workspace, membership, actor, avatar or token', async () => {
    const w = await newWorkspace();
    const { member, actor } = await newMember(w.id, 'owner');

    const tokens = new TokenStore(db);
    expect(await tokens.list(bad)).toEqual([]);
    expect(await tokens.list(w.id, bad)).toEqual([]);
    expect(await tokens.revoke(bad, randomUUID())).toBeUndefined();
    expect(await tokens.revoke(w.id, bad)).toBeUndefined();
    expect(await tokens.touch([bad], new Date())).toBe(0);

    expect(await workspaces.findLive(bad)).toBeUndefined();
    expect(await workspaces.listForUser(bad)).toEqual([]);
    expect(await workspaces.update(bad, { name: 'x' })).toBeUndefined();
    expect(await workspaces.setAvatar(bad, null)).toBeUndefined();
    expect(await workspaces.markDeleted(bad)).toBe(false);
    expect(await workspaces.isDeleted(bad)).toBe(false);

    expect(await members.find(w.id, bad)).toBeUndefined();
    expect(await members.find(bad, member.id)).toBeUndefined();
    expect(await members.findAccepted(bad, member.userId)).toBeUndefined();
    expect(await members.findAccepted(w.id, bad)).toBeUndefined();
    expect(await members.list(bad)).toEqual([]);
    expect(await members.activeUserIds(bad)).toEqual([]);
    expect(await members.setRole(w.id, bad, 'admin')).toBeUndefined();
    expect(await members.remove(w.id, bad)).toBeUndefined();

    expect(await actors.find(w.id, bad)).toBeUndefined();
    expect(await actors.findMany(w.id, [actor.id, bad])).toEqual([actor]);
    expect(await actors.findMany(bad, [actor.id])).toEqual([]);
    expect(await actors.list(bad)).toEqual([]);
    expect(await actors.update(w.id, bad, { displayName: 'x' })).toBeUndefined();
    expect(await actors.setAvatar(bad, actor.id, null)).toBeUndefined();

    expect(await avatars.find({ kind: 'workspace', workspaceId: w.id }, bad)).toBeUndefined();
    expect(await avatars.keysOfWorkspace(bad)).toEqual([]);

    expect(await members.find(w.id, member.id)).toEqual(member);
  });

  it('leave a surrounding transaction usable', async () => {
    const w = await newWorkspace();
    const { member } = await newMember(w.id, 'owner');
    const found = await transact(async (tx) => {
      expect(await workspaces.findLive(bad, tx)).toBeUndefined();
      expect(await members.setRole(w.id, bad, 'admin', tx)).toBeUndefined();
      expect((await members.lockMembers(w.id, [bad], tx)).map((m) => m.id)).toEqual([member.id]);
      return members.find(w.id, member.id, tx);
    });
    expect(found).toEqual(member);
  });

  it('take a uuid in capitals as naming no row (the gateway lowercases every id it forwards)', async () => {
    const w = await newWorkspace();
    const { member, actor } = await newMember(w.id);
    expect(await workspaces.findLive(w.id.toUpperCase())).toBeUndefined();
    expect(await members.find(w.id, member.id.toUpperCase())).toBeUndefined();
    expect(await actors.find(w.id, actor.id.toUpperCase())).toBeUndefined();
  });
});
