import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashToken } from '@wms/kit/account-rules';
import { createDb, type Knex } from '@wms/kit/db';
import { alreadyExists, DomainError } from '@wms/kit/errors';
import type { CallContext } from '@wms/kit/context';
import { createLogger } from '@wms/kit/logger';
import { createRedis, type Redis, redisReady } from '@wms/kit/redis';
import { createStorage } from '@wms/kit/storage';
import { createTestDatabase, dropRedisPrefix, emittedEvents, testRedisPrefix, testRedis } from '@wms/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { INVITATION_LIFETIME_MS } from '../src/domain/invitation.ts';
import type { IdentityClient } from '../src/adapters/user-directory.ts';
import { buildWorkspaceServices, type WorkspaceServices } from '../src/wiring.ts';

// The invitation service over the real Postgres and Redis, with a clock the tests move and a stand-in for the identity
// service that keeps the accounts and the mails it is asked to send.

const log = createLogger('workspace-invitations-test', 'silent');
const DAY = 24 * 60 * 60 * 1000;

interface Account {
  id: string;
  email: string;
  name: string;
  email_verified_at?: string;
  created_at: string;
  updated_at: string;
}
interface SentMail {
  email: string;
  workspace_name: string;
  inviter_name: string;
  token: string;
}

let database: { url: string; drop(): Promise<void> };
let db: Knex;
let emitted: Awaited<ReturnType<typeof emittedEvents>>;
let redis: Redis;
let storageDir: string;
const prefix = testRedisPrefix();
const accounts = new Map<string, Account>();
const mails: SentMail[] = [];
let clock = new Date('2026-12-01T09:00:00.000Z');

const identity: IdentityClient = {
  GetUsersByIds: async ({ ids = [] }) => ({ users: [...accounts.values()].filter((a) => ids.includes(a.id)) }),
  FindUserByEmail: async ({ email }) => ({ user: [...accounts.values()].find((a) => a.email === email) ?? null }),
  SendInvitationMail: async (req) => {
    mails.push({
      email: req.email ?? '',
      workspace_name: req.workspace_name ?? '',
      inviter_name: req.inviter_name ?? '',
      token: req.token ?? '',
    });
    return {};
  },
  CreateInvitedAccount: async ({ email = '', name = '' }) => {
    if ([...accounts.values()].some((a) => a.email === email)) throw alreadyExists('account_exists', 'taken');
    const user = account(email, name);
    return { access_token: `token-of-${user.id}`, user, expires_at: undefined };
  },
};

function account(email: string, name = 'Someone', verified = true): Account {
  const user = {
    id: randomUUID(),
    email,
    name,
    created_at: clock.toISOString(),
    updated_at: clock.toISOString(),
    ...(verified ? { email_verified_at: clock.toISOString() } : {}),
  };
  accounts.set(user.id, user);
  return user;
}

function build(invitationMailsPerHour = 100): WorkspaceServices {
  const refuse = () => Promise.reject(new Error('not in this test'));
  return buildWorkspaceServices({
    db,
    redis,
    storage: createStorage({
      driver: 'fs',
      dir: storageDir,
      publicUrl: 'http://127.0.0.1',
      secret: randomBytes(32).toString('hex'),
    }),
    identity,
    messaging: { AdmitAgent: refuse, ReadableConversations: refuse },
    resizer: { resize: refuse },
    purges: { schedule: async () => undefined },
    invitationMailsPerHour,
    now: () => clock,
  });
}

let services: WorkspaceServices;

beforeAll(async () => {
  database = await createTestDatabase('workspace', migrations);
  db = createDb({ url: database.url, schema: 'workspace', log });
  emitted = await emittedEvents(db);
  redis = createRedis(testRedis, prefix, log);
  await redisReady(redis);
  storageDir = await mkdtemp(path.join(tmpdir(), 'workspace-invitations-'));
  services = build();
});

afterAll(async () => {
  await redis?.quit();
  await dropRedisPrefix(testRedis, prefix);
  await db?.destroy();
  await database?.drop();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

beforeEach(() => {
  clock = new Date(clock.getTime() + DAY);
});

const as = (user: Account, workspaceId?: string): CallContext => ({
  requestId: randomUUID(),
  userId: user.id,
  workspaceId,
});
const email = (tag: string) => `${tag}-${randomBytes(5).toString('hex')}@example.org`;

/** A workspace with its owner, an admin and a member (accepted members, by the add of contract §3). */
async function team() {
  const owner = account(email('owner'), 'Olive');
  const admin = account(email('admin'), 'Adam');
  const member = account(email('member'), 'Mia');
  const ws = await services.workspaces.createWorkspace(as(owner), {
    name: 'Team',
    slug: `t-${randomBytes(6).toString('hex')}`,
  });
  await services.members.addWorkspaceUser(as(owner, ws.id), { email: admin.email, role: 'admin' });
  await services.members.addWorkspaceUser(as(owner, ws.id), { email: member.email });
  return { ws: ws.id, owner, admin, member };
}

async function failure(work: Promise<unknown>): Promise<DomainError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

const rows = (workspaceId: string) =>
  db('invitations').where({ workspace_id: workspaceId }).orderBy('id').select('id', 'email', 'status', 'role');
const memberships = (workspaceId: string, userId: string) =>
  db('workspace_users').where({ workspace_id: workspaceId, user_id: userId }).select('id', 'actor_id', 'removed_at');
const outboxEvents = async (workspaceId: string) => (await emitted.read(workspaceId)).map((r) => r.event);
const lastMailTo = (address: string) => mails.filter((m) => m.email === address).at(-1)!;

describe('inviting', () => {
  it('makes a pending invitation for 7 days and mails its link naming the workspace and the inviter; no event', async () => {
    const { ws, owner } = await team();
    const before = await outboxEvents(ws);
    const to = email('new');
    const sent = await services.invitations.invite(as(owner, ws), { email: ` ${to.toUpperCase()} ` });
    expect(sent.created).toBe(true);
    expect(sent.invitation).toMatchObject({ workspaceId: ws, email: to, role: 'member', status: 'pending' });
    expect(sent.invitation.workspaceUserId).toBeNull();
    expect(sent.invitation.expiresAt.getTime()).toBe(clock.getTime() + INVITATION_LIFETIME_MS);
    expect(sent.invitation.updatedAt).toEqual(clock);
    expect(lastMailTo(to)).toMatchObject({ workspace_name: 'Team', inviter_name: 'Olive' });
    expect(lastMailTo(to).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The link's token is kept as its SHA-256 alone.
    const links = await db('invitation_links').where({ invitation_id: sent.invitation.id }).select('token_hash');
    expect(links).toEqual([{ token_hash: hashToken(lastMailTo(to).token) }]);
    expect(await outboxEvents(ws)).toEqual(before);
    const page = await services.invitations.list(as(owner, ws), { limit: 50 });
    expect(page.items.map((i) => i.id)).toEqual([sent.invitation.id]);
  });

  it('renews and resends the pending invitation of an address; every link it mailed keeps working', async () => {
    const { ws, owner, admin } = await team();
    const to = email('again');
    const first = await services.invitations.invite(as(admin, ws), { email: to });
    const firstLink = lastMailTo(to).token;
    clock = new Date(clock.getTime() + 3 * DAY);
    const again = await services.invitations.invite(as(owner, ws), { email: to });
    expect(again.created).toBe(false);
    expect(again.invitation.id).toBe(first.invitation.id);
    expect(again.invitation.role).toBe('member');
    expect(again.invitation.invitedByActorId).not.toBe(first.invitation.invitedByActorId);
    expect(again.invitation.expiresAt.getTime()).toBe(clock.getTime() + INVITATION_LIFETIME_MS);
    expect(again.invitation.updatedAt).toEqual(clock);
    expect(again.invitation.createdAt).toEqual(first.invitation.createdAt);
    const secondLink = lastMailTo(to).token;
    expect(secondLink).not.toBe(firstLink);
    for (const link of [firstLink, secondLink])
      expect((await services.invitations.byToken(link)).invitation.id).toBe(first.invitation.id);
    expect(await rows(ws)).toHaveLength(1);
  });

  it("keeps a renewed invitation's role unless one is given; an admin renews no admin invitation as it is", async () => {
    const { ws, owner, admin } = await team();
    const to = email('role');
    await services.invitations.invite(as(owner, ws), { email: to, role: 'admin' });
    expect((await failure(services.invitations.invite(as(admin, ws), { email: to }))).code).toBe('forbidden');
    expect((await rows(ws)).map((r: { role: string }) => r.role)).toEqual(['admin']);
    expect((await services.invitations.invite(as(owner, ws), { email: to })).invitation.role).toBe('admin');
    // An admin may make it a member's (as it may revoke it and invite the address as a member).
    expect((await services.invitations.invite(as(admin, ws), { email: to, role: 'member' })).invitation.role).toBe(
      'member',
    );
    expect((await services.invitations.invite(as(admin, ws), { email: to })).invitation.role).toBe('member');
    expect(await rows(ws)).toHaveLength(1);
  });

  it('makes one invitation of concurrent invitations of one address, without an error', async () => {
    const { ws, owner } = await team();
    const to = email('race');
    const sent = await Promise.all(
      Array.from({ length: 8 }, () => services.invitations.invite(as(owner, ws), { email: to })),
    );
    expect(new Set(sent.map((s) => s.invitation.id)).size).toBe(1);
    expect(sent.filter((s) => s.created)).toHaveLength(1);
    expect(await rows(ws)).toEqual([expect.objectContaining({ email: to, status: 'pending' })]);
  });

  it('answers alike whether or not the address has an account', async () => {
    const { ws, owner } = await team();
    const known = account(email('known'));
    const shapes = await Promise.all(
      [known.email, email('unknown')].map(async (to) => {
        const { invitation, created } = await services.invitations.invite(as(owner, ws), { email: to });
        return { created, status: invitation.status, role: invitation.role, user: invitation.workspaceUserId };
      }),
    );
    expect(shapes[0]).toEqual(shapes[1]);
  });

  it('refuses by the rules and changes nothing: members, admins inviting admins, accepted members, bad input', async () => {
    const { ws, owner, admin, member } = await team();
    const to = email('refused');
    const mailsBefore = mails.length;
    expect((await failure(services.invitations.invite(as(member, ws), { email: to }))).code).toBe('forbidden');
    expect((await failure(services.invitations.invite(as(admin, ws), { email: to, role: 'admin' }))).code).toBe(
      'forbidden',
    );
    expect((await failure(services.invitations.invite(as(owner, ws), { email: to, role: 'owner' }))).code).toBe(
      'invalid_role',
    );
    expect((await failure(services.invitations.invite(as(owner, ws), { email: 'not-an-address' }))).code).toBe(
      'invalid_input',
    );
    const taken = await failure(services.invitations.invite(as(admin, ws), { email: member.email.toUpperCase() }));
    expect(taken.code).toBe('already_member');
    expect((await failure(services.invitations.list(as(member, ws), { limit: 50 }))).code).toBe('forbidden');
    expect(await rows(ws)).toEqual([]);
    expect(mails.length).toBe(mailsBefore);
  });

  it('sends at most the hourly number of mails per workspace: then 429 with the wait, and nothing is made', async () => {
    const limited = build(3);
    const { ws, owner } = await team();
    const other = await team();
    for (let i = 0; i < 3; i++) await limited.invitations.invite(as(owner, ws), { email: email(`n${i}`) });
    const refused = await failure(limited.invitations.invite(as(owner, ws), { email: email('fourth') }));
    expect(refused.code).toBe('rate_limited');
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(await rows(ws)).toHaveLength(3);
    // A resend counts too; another workspace has its own hour.
    const first = (await rows(ws))[0] as { email: string };
    expect((await failure(limited.invitations.invite(as(owner, ws), { email: first.email }))).code).toBe(
      'rate_limited',
    );
    await limited.invitations.invite(as(other.owner, other.ws), { email: email('elsewhere') });
  });
});

describe('answering', () => {
  it('accepts into an accepted membership with the invited role and a user actor, with workspace_user.added', async () => {
    const { ws, owner } = await team();
    const invitee = account(email('joiner'), 'Joy');
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email, role: 'admin' });
    const eventsBefore = await outboxEvents(ws);
    expect((await services.invitations.received(as(invitee))).map((r) => r.invitation.id)).toEqual([invitation.id]);
    const member = await services.invitations.accept(as(invitee), invitation.id);
    expect(member).toMatchObject({ workspaceId: ws, userId: invitee.id, role: 'admin' });
    expect(member.acceptedAt).not.toBeNull();
    expect((await services.members.resolveMembership({ workspaceId: ws, userId: invitee.id })).id).toBe(member.id);
    expect(await outboxEvents(ws)).toEqual([...eventsBefore, 'actor.updated', 'workspace_user.added']);
    const [closed] = (await services.invitations.list(as(owner, ws), { status: 'accepted', limit: 50 })).items;
    expect(closed).toMatchObject({ id: invitation.id, status: 'accepted', workspaceUserId: member.id });
    expect(await services.invitations.received(as(invitee))).toEqual([]);
    expect((await failure(services.invitations.accept(as(invitee), invitation.id))).code).toBe('invitation_closed');
  });

  it("is 404 for someone else's invitation, an unverified address, an unknown id and a deleted workspace", async () => {
    const { ws, owner } = await team();
    const invitee = account(email('mine'));
    const unverified = account(email('unverified'), 'U', false);
    const stranger = account(email('stranger'));
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
    const { invitation: toUnverified } = await services.invitations.invite(as(owner, ws), { email: unverified.email });
    for (const [who, id] of [
      [stranger, invitation.id],
      [unverified, toUnverified.id],
      [invitee, randomUUID()],
      [invitee, 'not-a-uuid'],
    ] as const) {
      expect((await failure(services.invitations.accept(as(who), id))).code).toBe('not_found');
      expect((await failure(services.invitations.decline(as(who), id))).code).toBe('not_found');
    }
    expect(await services.invitations.received(as(unverified))).toEqual([]);
    await services.workspaces.deleteWorkspace(as(owner, ws));
    expect(await db('workspaces').where({ id: ws }).whereNotNull('deleted_at').select('id')).toHaveLength(1);
    expect((await failure(services.invitations.accept(as(invitee), invitation.id))).code).toBe('not_found');
    expect(await services.invitations.received(as(invitee))).toEqual([]);
    expect((await rows(ws)).map((r: { status: string }) => r.status)).toEqual(['pending', 'pending']);
  });

  it('ends accept, decline and revoke racing each other in exactly one final status and at most one membership', async () => {
    const { ws, owner } = await team();
    for (let round = 0; round < 6; round++) {
      const invitee = account(email(`racer${round}`));
      const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
      const outcomes = await Promise.allSettled([
        services.invitations.accept(as(invitee), invitation.id),
        services.invitations.decline(as(invitee), invitation.id),
        services.invitations.revoke(as(owner, ws), invitation.id),
      ]);
      expect(outcomes[2].status, 'revoke answers 204 whatever won').toBe('fulfilled');
      const answered = outcomes.slice(0, 2).filter((o) => o.status === 'fulfilled');
      const [row] = await db('invitations').where({ id: invitation.id }).select('status', 'workspace_user_id');
      const joined = await memberships(ws, invitee.id);
      expect(['accepted', 'declined', 'revoked']).toContain(row.status);
      expect(answered.length).toBe(row.status === 'revoked' ? 0 : 1);
      expect(joined.length).toBe(row.status === 'accepted' ? 1 : 0);
      expect(row.workspace_user_id).toBe(row.status === 'accepted' ? joined[0].id : null);
      for (const o of outcomes.slice(0, 2))
        if (o.status === 'rejected') expect((o.reason as DomainError).code).toBe('invitation_closed');
    }
  });

  it('expires 7 days after the last sending: closed to accept and decline, listed as expired, revocable as a no-op', async () => {
    const { ws, owner } = await team();
    const invitee = account(email('late'));
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
    const link = lastMailTo(invitee.email).token;
    clock = new Date(invitation.expiresAt.getTime() - 1);
    expect((await services.invitations.received(as(invitee))).map((r) => r.invitation.id)).toEqual([invitation.id]);
    clock = new Date(invitation.expiresAt.getTime());
    expect(await services.invitations.received(as(invitee))).toEqual([]);
    expect((await failure(services.invitations.accept(as(invitee), invitation.id))).code).toBe('invitation_closed');
    expect((await failure(services.invitations.decline(as(invitee), invitation.id))).code).toBe('invitation_closed');
    expect((await failure(services.invitations.byToken(link))).code).toBe('invalid_token');
    await services.invitations.revoke(as(owner, ws), invitation.id);
    const list = (status: string) =>
      services.invitations.list(as(owner, ws), { status, limit: 50 }).then((p) => p.items.map((i) => i.id));
    expect(await list('expired')).toEqual([invitation.id]);
    expect(await list('pending')).toEqual([]);
    expect(await list('revoked')).toEqual([]);
    expect(await memberships(ws, invitee.id)).toEqual([]);
    // Invited again: a new invitation; the expired one stays expired.
    const again = await services.invitations.invite(as(owner, ws), { email: invitee.email });
    expect(again.created).toBe(true);
    expect(again.invitation.id).not.toBe(invitation.id);
    expect(await list('expired')).toEqual([invitation.id]);
    expect(await list('pending')).toEqual([again.invitation.id]);
  });

  it('ends an acceptance racing a direct add of the same account in one membership, without a deadlock', async () => {
    const { ws, owner, member } = await team();
    const removed = (await memberships(ws, member.id))[0] as { id: string };
    await services.members.removeWorkspaceUser(as(owner, ws), { workspaceUserId: removed.id });
    for (let round = 0; round < 6; round++) {
      // Odd rounds: an account that was a member (its row comes back); even ones: a new one.
      const invitee = round % 2 ? member : account(email(`both${round}`));
      if (round % 2 && round > 1) {
        const row = (await memberships(ws, member.id))[0] as { id: string };
        await services.members.removeWorkspaceUser(as(owner, ws), { workspaceUserId: row.id });
      }
      const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
      const outcomes = await Promise.allSettled([
        services.invitations.accept(as(invitee), invitation.id),
        services.members.addWorkspaceUser(as(owner, ws), { email: invitee.email }),
      ]);
      const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o.reason as DomainError).code);
      expect(refused.length, JSON.stringify(outcomes)).toBe(1);
      expect(['already_member', 'invitation_closed']).toEqual(expect.arrayContaining(refused));
      const joined = await memberships(ws, invitee.id);
      expect(joined.filter((j: { removed_at: Date | null }) => j.removed_at === null)).toHaveLength(1);
      const [row] = await db('invitations').where({ id: invitation.id }).select('status', 'workspace_user_id');
      expect(row).toEqual({ status: 'accepted', workspace_user_id: joined[0].id });
    }
  });

  it('does not leave a pending invitation to an address that became a member while it was invited again', async () => {
    const { ws, owner } = await team();
    for (let round = 0; round < 6; round++) {
      const invitee = account(email(`again${round}`));
      const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
      const [accepted, again] = await Promise.allSettled([
        services.invitations.accept(as(invitee), invitation.id),
        services.invitations.invite(as(owner, ws), { email: invitee.email }),
      ]);
      expect(accepted.status).toBe('fulfilled');
      if (again.status === 'rejected') expect((again.reason as DomainError).code).toBe('already_member');
      else expect(again.value).toMatchObject({ created: false, invitation: { id: invitation.id } });
      const open = await db('invitations').where({ workspace_id: ws, email: invitee.email, status: 'pending' });
      expect(open).toEqual([]);
    }
  });

  it('gives a removed member who accepts the same membership and actor back', async () => {
    const { ws, owner, member } = await team();
    const before = (await memberships(ws, member.id))[0] as { id: string; actor_id: string };
    await services.members.removeWorkspaceUser(as(owner, ws), { workspaceUserId: before.id });
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: member.email });
    const back = await services.invitations.accept(as(member), invitation.id);
    expect(back).toMatchObject({ id: before.id, actorId: before.actor_id, role: 'member' });
    expect(await memberships(ws, member.id)).toEqual([{ id: before.id, actor_id: before.actor_id, removed_at: null }]);
    const [actor] = await db('actors').where({ id: before.actor_id }).select('deactivated_at');
    expect(actor.deactivated_at).toBeNull();
  });

  it('accepts the pending invitation of an address added directly meanwhile, into that membership', async () => {
    const { ws, owner } = await team();
    const invitee = account(email('direct'));
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
    const added = await services.members.addWorkspaceUser(as(owner, ws), { email: invitee.email });
    const [row] = await db('invitations').where({ id: invitation.id }).select('status', 'workspace_user_id');
    expect(row).toEqual({ status: 'accepted', workspace_user_id: added.id });
    expect((await failure(services.invitations.accept(as(invitee), invitation.id))).code).toBe('invitation_closed');
  });

  it('revokes for owners and admins only; a revoked invitation is closed and its links stop working', async () => {
    const { ws, owner, member } = await team();
    const invitee = account(email('revoked'));
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: invitee.email });
    const link = lastMailTo(invitee.email).token;
    expect((await failure(services.invitations.revoke(as(member, ws), invitation.id))).code).toBe('forbidden');
    expect((await failure(services.invitations.revoke(as(owner, ws), randomUUID()))).code).toBe('not_found');
    const other = await team();
    expect((await failure(services.invitations.revoke(as(other.owner, other.ws), invitation.id))).code).toBe(
      'not_found',
    );
    expect((await services.invitations.byToken(link)).invitation.status).toBe('pending');
    await services.invitations.revoke(as(owner, ws), invitation.id);
    await services.invitations.revoke(as(owner, ws), invitation.id);
    expect((await failure(services.invitations.byToken(link))).code).toBe('invalid_token');
    expect((await failure(services.invitations.accept(as(invitee), invitation.id))).code).toBe('invitation_closed');
    const [row] = await db('invitations').where({ id: invitation.id }).select('status');
    expect(row.status).toBe('revoked');
  });

  it('pages a status newest first by keyset, without gaps or repeats', async () => {
    const { ws, owner } = await team();
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await services.invitations.invite(as(owner, ws), { email: email(`p${i}`) })).invitation.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await services.invitations.list(as(owner, ws), { cursor, limit: 2 });
      seen.push(...page.items.map((i) => i.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(made.reverse());
  });
});

describe('registering from the link', () => {
  it('makes the account, accepts the invitation, and the link works once', async () => {
    const { ws, owner } = await team();
    const to = email('newcomer');
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: to });
    const link = lastMailTo(to).token;
    const ctx = { requestId: randomUUID() };
    const auth = await services.invitations.register(ctx, { token: link, name: 'Newt', password: 'correct-horse-1' });
    expect(auth.user).toMatchObject({ email: to, name: 'Newt' });
    const [joined] = await memberships(ws, auth.user!.id);
    expect(joined).toBeDefined();
    const [row] = await db('invitations').where({ id: invitation.id }).select('status', 'workspace_user_id');
    expect(row).toEqual({ status: 'accepted', workspace_user_id: joined.id });
    const again = await failure(
      services.invitations.register(ctx, { token: link, name: 'N', password: 'correct-horse-1' }),
    );
    expect(again.code).toBe('invalid_token');
  });

  it('refuses a malformed token (400), an unknown one (401), and an address with an account (409), changing nothing', async () => {
    const { ws, owner } = await team();
    const existing = account(email('existing'));
    await services.invitations.invite(as(owner, ws), { email: existing.email });
    const link = lastMailTo(existing.email).token;
    const ctx = { requestId: randomUUID() };
    const body = { name: 'X', password: 'correct-horse-1' };
    expect((await failure(services.invitations.register(ctx, { ...body, token: 'short' }))).code).toBe('invalid_input');
    expect((await failure(services.invitations.register(ctx, { ...body, token: 'A'.repeat(43) }))).code).toBe(
      'invalid_token',
    );
    expect(
      (await failure(services.invitations.register(ctx, { token: link, name: 'X', password: 'short' }))).code,
    ).toBe('invalid_input');
    expect((await failure(services.invitations.register(ctx, { ...body, token: link }))).code).toBe('account_exists');
    // An expired invitation's link registers no one.
    const late = email('late-newcomer');
    const { invitation } = await services.invitations.invite(as(owner, ws), { email: late });
    clock = new Date(invitation.expiresAt.getTime());
    const expired = await failure(services.invitations.register(ctx, { ...body, token: lastMailTo(late).token }));
    expect(expired.code).toBe('invalid_token');
    expect([...accounts.values()].some((a) => a.email === late)).toBe(false);
    expect((await rows(ws)).map((r: { status: string }) => r.status)).toEqual(['pending', 'pending']);
    expect(await memberships(ws, existing.id)).toEqual([]);
  });
});
