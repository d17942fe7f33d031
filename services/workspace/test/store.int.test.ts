import { randomBytes, randomUUID } from 'node:crypto';
import { createDb, isUniqueViolation, type Knex } from '@wms/kit/db';
import { DomainError } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { createTestDatabase } from '@wms/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import type { Role } from '../src/domain/model.ts';
import { ActorStore } from '../src/store/actor.store.ts';
import { type AvatarOwner, AvatarStore } from '../src/store/avatar.store.ts';
import { MemberStore } from '../src/store/member.store.ts';
import { WorkspaceStore } from '../src/store/workspace.store.ts';

const log = createLogger('workspace-store-test', 'silent');

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let workspaces: WorkspaceStore;
let members: MemberStore;
let actors: ActorStore;
let avatars: AvatarStore;

beforeAll(async () => {
  database = await createTestDatabase('workspace', migrations);
  db = createDb({ url: database.url, schema: 'workspace', log });
  workspaces = new WorkspaceStore(db);
  members = new MemberStore(db);
  actors = new ActorStore(db);
  avatars = new AvatarStore(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const uniqueSlug = () => `s-${randomBytes(6).toString('hex')}`;
const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

async function newWorkspace(trx: Knex = db) {
  return workspaces.insert({ id: randomUUID(), name: `Workspace ${randomBytes(3).toString('hex')}`, slug: uniqueSlug() }, trx);
}

async function newMember(workspaceId: string, role: Role = 'member', trx: Knex = db, userId = randomUUID()) {
  const actor = await actors.insert({ id: randomUUID(), workspaceId, kind: 'user', userId, displayName: 'Member', title: null, managedByAdmins: false }, trx);
  const member = await members.insert({ id: randomUUID(), workspaceId, userId, actorId: actor.id, role }, trx);
  return { actor, member };
}

async function newAgent(workspaceId: string, trx: Knex = db) {
  return actors.insert({ id: randomUUID(), workspaceId, kind: 'agent', userId: null, displayName: 'Bot', title: 'Helper', managedByAdmins: true }, trx);
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
async function withShortLockTimeout<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw(`SET LOCAL lock_timeout = '150ms'`);
    return fn(trx);
  });
}
/** Moves a timestamp far into the past, so a later now() is later whatever the clock's resolution. */
const past = new Date('2001-01-01T00:00:00Z');
const backdate = (table: string, id: string, column = 'updated_at') => db(table).where({ id }).update({ [column]: past });

const lockNotAvailable = (err: unknown) => (err as { code?: string }).code === '55P03';

describe(WorkspaceStore.name, () => {
  it('inserts a workspace and reads it back as the domain type', async () => {
    const id = randomUUID();
    const slug = uniqueSlug();
    const created = await workspaces.insert({ id, name: 'Acme', slug });
    expect(created).toEqual({ id, name: 'Acme', slug, avatarId: null, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
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
    const listed = await db.transaction(async (trx) => {
      // One transaction: equal created_at, so the id decides.
      const ws = [await newWorkspace(trx), await newWorkspace(trx), await newWorkspace(trx)];
      for (const w of ws) await newMember(w.id, 'member', trx, userId);
      return ws;
    });
    const oldest = await db.transaction(async (trx) => {
      const w = await newWorkspace(trx);
      await newMember(w.id, 'owner', trx, userId);
      return w;
    });
    await db('workspaces').where({ id: oldest.id }).update({ created_at: new Date('2001-01-01T00:00:00Z') });

    const deleted = await newWorkspace();
    await newMember(deleted.id, 'member', db, userId);
    await workspaces.markDeleted(deleted.id);

    const removedFrom = await newWorkspace();
    const { member: removed } = await newMember(removedFrom.id, 'member', db, userId);
    await members.remove(removedFrom.id, removed.id, db);

    const pending = await newWorkspace();
    const { member: unaccepted } = await newMember(pending.id, 'member', db, userId);
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
    await avatars.insert(randomUUID(), { kind: 'actor', workspaceId: w.id, actorId: actor.id }, `avatars/${randomUUID()}`);
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
    const { actor, member } = await newMember(w.id, 'admin', db, userId);
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

  it('refuses a second membership of a user as already_member, and the database a second owner', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { member } = await newMember(w.id, 'owner', db, userId);
    const agent = await newAgent(w.id);
    const twice = await refusal(members.insert({ id: randomUUID(), workspaceId: w.id, userId, actorId: agent.id, role: 'member' }));
    expect(twice).toMatchObject({ kind: 'already_exists', code: 'already_member' });
    const secondOwner = await refusal(newMember(w.id, 'owner'));
    expect(isUniqueViolation(secondOwner, 'workspace_users_one_owner')).toBe(true);
    expect((await members.list(w.id)).map((m) => m.id)).toEqual([member.id]);
  });

  it('lists active members oldest first then by id, leaving out removed ones and other workspaces', async () => {
    const w = await newWorkspace();
    const inserted = await db.transaction(async (trx) => {
      const rows = [];
      for (const role of ['owner', 'admin', 'member', 'member'] as const) rows.push((await newMember(w.id, role, trx)).member);
      return rows;
    });
    const sorted = byId(inserted);
    const newest = sorted[0]!;
    await db('workspace_users').where({ id: newest.id }).update({ created_at: new Date(Date.now() + 60_000) });
    const removed = sorted[1]!;
    await members.remove(w.id, removed.id, db);
    const other = await newWorkspace();
    await newMember(other.id, 'owner');

    const listed = await members.list(w.id);
    expect(listed.map((m) => m.id)).toEqual([...sorted.slice(2).map((m) => m.id), newest.id]);
    expect(await members.activeUserIds(w.id).then((ids) => ids.sort())).toEqual(listed.map((m) => m.userId).sort());
  });

  it('removes a membership once; the row stays but is no longer found, listed or changeable', async () => {
    const w = await newWorkspace();
    const { member } = await newMember(w.id);
    expect(await members.remove(randomUUID(), member.id, db)).toBeUndefined();
    const removed = await members.remove(w.id, member.id, db);
    expect(removed).toMatchObject({ id: member.id, role: 'member' });
    expect(await members.remove(w.id, member.id, db)).toBeUndefined();
    expect(await members.find(w.id, member.id)).toBeUndefined();
    expect(await members.setRole(w.id, member.id, 'admin')).toBeUndefined();
    expect(await members.activeUserIds(w.id)).toEqual([]);
    const [row] = await db('workspace_users').where({ id: member.id }).select('removed_at', 'role');
    expect(row).toMatchObject({ removed_at: expect.any(Date), role: 'member' });
  });

  it('finds any membership of a user, removed or not, and reactivates it with the same id and actor', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { member } = await newMember(w.id, 'member', db, userId);
    expect(await db.transaction((trx) => members.findAnyByUserForUpdate(w.id, userId, trx))).toEqual({ ...member, removed: false });
    await members.remove(w.id, member.id, db);
    const found = await db.transaction((trx) => members.findAnyByUserForUpdate(w.id, userId, trx));
    expect(found).toMatchObject({ id: member.id, actorId: member.actorId, removed: true });
    expect(await db.transaction((trx) => members.findAnyByUserForUpdate(w.id, randomUUID(), trx))).toBeUndefined();
    expect(await db.transaction((trx) => members.findAnyByUserForUpdate(randomUUID(), userId, trx))).toBeUndefined();

    await backdate('workspace_users', member.id, 'accepted_at');
    const back = await db.transaction((trx) => members.reactivate(member.id, 'admin', trx));
    expect(back).toMatchObject({ id: member.id, actorId: member.actorId, userId, role: 'admin' });
    expect(back.acceptedAt!.getTime()).toBeGreaterThan(past.getTime());
    expect(await members.find(w.id, member.id)).toEqual(back);
  });

  it('holds the row lock of findAnyByUserForUpdate until the transaction ends', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    await newMember(w.id, 'member', db, userId);
    const holder = await db.transaction();
    try {
      expect(await members.findAnyByUserForUpdate(w.id, userId, holder)).toBeDefined();
      const blocked = await refusal(withShortLockTimeout((trx) => members.findAnyByUserForUpdate(w.id, userId, trx)));
      expect(lockNotAvailable(blocked)).toBe(true);
      // A plain read is not blocked.
      expect(await members.findAccepted(w.id, userId)).toBeDefined();
    } finally {
      await holder.commit();
    }
    expect(await withShortLockTimeout((trx) => members.findAnyByUserForUpdate(w.id, userId, trx))).toBeDefined();
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
    await members.remove(w.id, leaving.id, db);
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
    const blocked = await refusal(members.setRole(w.id, heir.id, 'owner'));
    expect(isUniqueViolation(blocked, 'workspace_users_one_owner')).toBe(true);
    await db.transaction(async (trx) => {
      await members.setRole(w.id, owner.id, 'admin', trx);
      await members.setRole(w.id, heir.id, 'owner', trx);
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
    await members.remove(w.id, gone.id, db);
    const other = await newWorkspace();
    const foreign = (await newMember(other.id, 'owner')).member;

    const holder = await db.transaction();
    try {
      const locked = await members.lockMembers(w.id, [a.id, b.id, gone.id, foreign.id], holder);
      expect(locked.map((m) => m.id)).toEqual(byId([owner, a, b]).map((m) => m.id));
      expect(locked.find((m) => m.id === owner.id)).toEqual(owner);

      for (const id of [owner.id, a.id, b.id]) {
        const err = await refusal(withShortLockTimeout((trx) => trx('workspace_users').where({ id }).forUpdate().first('id')));
        expect(lockNotAvailable(err)).toBe(true);
      }
      for (const id of [untouched.id, foreign.id]) {
        expect(await withShortLockTimeout((trx) => trx('workspace_users').where({ id }).forUpdate().first('id'))).toEqual({ id });
      }
    } finally {
      await holder.rollback();
    }
    expect(await db.transaction((trx) => members.lockMembers(w.id, [], trx)).then((rows) => rows.map((m) => m.id))).toEqual([owner.id]);
  });
});

describe(ActorStore.name, () => {
  it('inserts user and agent actors and reads them back as the domain type', async () => {
    const w = await newWorkspace();
    const userId = randomUUID();
    const { actor } = await newMember(w.id, 'member', db, userId);
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
    await newMember(w.id, 'member', db, userId);
    const err = await refusal(actors.insert({ id: randomUUID(), workspaceId: w.id, kind: 'user', userId, displayName: 'Twin', title: null, managedByAdmins: false }));
    expect(err).toMatchObject({ kind: 'already_exists', code: 'already_member' });
    const elsewhere = await newWorkspace();
    expect(await actors.insert({ id: randomUUID(), workspaceId: elsewhere.id, kind: 'user', userId, displayName: 'Same user', title: null, managedByAdmins: false })).toMatchObject({ userId });
  });

  it('reads many actors of one workspace in one call, leaving out unknown ids and other workspaces', async () => {
    const w = await newWorkspace();
    const mine = await db.transaction(async (trx) => {
      const rows = [];
      for (let i = 0; i < 150; i++) rows.push(i % 3 === 0 ? (await newMember(w.id, i === 0 ? 'owner' : 'member', trx)).actor : await newAgent(w.id, trx));
      return rows;
    });
    const other = await newWorkspace();
    const foreign = await newAgent(other.id);
    const ids = [...mine.map((a) => a.id), foreign.id, randomUUID(), mine[0]!.id];
    const found = await actors.findMany(w.id, ids);
    expect(byId(found)).toEqual(byId(mine));
    expect(await actors.findMany(w.id, [])).toEqual([]);
    expect(await actors.findMany(other.id, ids)).toEqual([foreign]);
  });

  it('lists every actor of a workspace, deactivated ones included, oldest first then by id', async () => {
    const w = await newWorkspace();
    const inserted = await db.transaction(async (trx) => [await newAgent(w.id, trx), await newAgent(w.id, trx), await newAgent(w.id, trx), (await newMember(w.id, 'owner', trx)).actor]);
    const sorted = byId(inserted);
    const oldest = sorted.at(-1)!;
    await db('actors').where({ id: oldest.id }).update({ created_at: new Date('2001-01-01T00:00:00Z') });
    const deactivated = sorted[0]!;
    await actors.setDeactivated(deactivated.id, true, db);
    await newAgent((await newWorkspace()).id);

    const listed = await actors.list(w.id);
    expect(listed.map((a) => a.id)).toEqual([oldest.id, ...sorted.slice(0, -1).map((a) => a.id)]);
    expect(listed.find((a) => a.id === deactivated.id)?.deactivatedAt).toBeInstanceOf(Date);
  });

  it('deactivates and reactivates an actor', async () => {
    const w = await newWorkspace();
    const { actor } = await newMember(w.id);
    await backdate('actors', actor.id);
    await actors.setDeactivated(actor.id, true, db);
    const off = await actors.find(w.id, actor.id);
    expect(off!.deactivatedAt).toBeInstanceOf(Date);
    expect(off!.updatedAt.getTime()).toBeGreaterThan(past.getTime());
    await actors.setDeactivated(actor.id, false, db);
    expect((await actors.find(w.id, actor.id))!.deactivatedAt).toBeNull();
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
    await avatars.insert(otherAvatar, { kind: 'actor', workspaceId: w.id, actorId: otherAgent.id }, `avatars/${otherAvatar}`);

    const keep = ids[1]!;
    const stale = await db.transaction((trx) => avatars.deleteOthers(owner, keep, trx));
    expect(stale.sort()).toEqual([ids[0]!, ids[2]!].map((id) => `avatars/${id}`).sort());
    expect(await avatars.find(owner, keep)).toEqual({ id: keep, storageKey: `avatars/${keep}` });
    expect(await avatars.find(owner, ids[0]!)).toBeUndefined();

    expect(await db.transaction((trx) => avatars.deleteOthers(owner, null, trx))).toEqual([`avatars/${keep}`]);
    expect(await avatars.find(owner, keep)).toBeUndefined();
    expect(await db.transaction((trx) => avatars.deleteOthers(owner, null, trx))).toEqual([]);

    expect((await avatars.keysOfWorkspace(w.id)).sort()).toEqual([`avatars/${workspaceAvatar}`, `avatars/${otherAvatar}`].sort());
  });

  it('takes back an insert when the transaction rolls back', async () => {
    const w = await newWorkspace();
    const owner: AvatarOwner = { kind: 'workspace', workspaceId: w.id };
    const id = randomUUID();
    const err = await refusal(
      db.transaction(async (trx) => {
        await avatars.insert(id, owner, `avatars/${id}`, trx);
        expect(await trx('avatars').where({ id }).first('id')).toEqual({ id });
        throw new Error('abort');
      }),
    );
    expect((err as Error).message).toBe('abort');
    expect(await avatars.find(owner, id)).toBeUndefined();
  });
});
