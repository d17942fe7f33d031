import { workspaceChannel } from '@wms/kit/channels';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, expectError, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { recordedEvents } from './support/events.ts';
import { api, type ApiResponse, gatewayUrl, randomIp, uniqueEmail } from './support/http.ts';
import { type CaughtMail, expectNoMail, linkToken, waitForMail } from './support/mail.ts';
import { addMember, createWorkspace, expectUnchanged, inWorkspace } from './support/workspaces.ts';

// Invitations (contract §12) through the gateway, with the real services and the cluster's mail catcher: a newcomer
// registers from the mailed link, an existing user accepts from GET /invitations, and every refusal changes nothing.

interface InvitationBody {
  id: string;
  workspace_id: string;
  email: string;
  role: string;
  status: string;
  invited_by_actor_id: string;
  workspace_user_id: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

const INVITATION_FIELDS = [
  'created_at',
  'email',
  'expires_at',
  'id',
  'invited_by_actor_id',
  'role',
  'status',
  'updated_at',
  'workspace_id',
  'workspace_user_id',
];
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

let owner: Account;
let admin: Account;
let member: Account;
let ws: string;
let wsName: string;

beforeAll(async () => {
  [owner, admin, member] = await Promise.all([signUp('inv-owner'), signUp('inv-admin'), signUp('inv-member')]);
  const created = await createWorkspace(owner, 'Invited Team');
  ws = created.id;
  wsName = created.name;
  await addMember(owner, ws, admin, 'admin');
  await addMember(owner, ws, member);
});

const as = (who: Account, method: string, path: string, body?: unknown) => inWorkspace(who, ws, method, path, { body });
const mine = (who: Account, method: string, path: string) => api(method, path, { token: who.token });

async function invite(by: Account, email: string, role?: string): Promise<InvitationBody> {
  const res = await as(by, 'POST', '/workspace/invitations', { email, ...(role ? { role } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as InvitationBody;
}

/** The invitation mail to `email` received from `after` on. */
const invitationMail = (email: string, after: Date): Promise<CaughtMail> =>
  waitForMail(email, { after, match: (m) => m.subject.includes('invited you to') });

async function listed(status = 'pending'): Promise<InvitationBody[]> {
  const res = await as(owner, 'GET', `/workspace/invitations?status=${status}&limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { items: InvitationBody[] }).items;
}

/** The workspace as `who` reads it: 200 for an accepted member, else the error's code. */
async function canRead(who: { token: string }): Promise<number> {
  return (await inWorkspace(who, ws, 'GET', '/workspace')).status;
}

const addedEventsOf = (userId: string) =>
  recordedEvents(
    'workspace',
    `channel = $1 AND event = 'workspace_user.added' AND payload->'workspace_user'->>'user_id' = $2`,
    [workspaceChannel(ws), userId],
  );

describe('a newcomer invited by email', () => {
  it('gets a mail naming the workspace and the inviter, registers from its link in one call, and reads the workspace', async () => {
    const email = uniqueEmail('newcomer');
    const after = new Date();
    const invitation = await invite(owner, email.toUpperCase());
    expect(Object.keys(invitation).sort()).toEqual(INVITATION_FIELDS);
    expect(invitation).toMatchObject({ workspace_id: ws, email, role: 'member', status: 'pending' });
    expect(invitation.workspace_user_id).toBeNull();
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.updated_at)).toBe(WEEK_MS);
    expect(invitation.created_at).toBe(invitation.updated_at);

    const mail = await invitationMail(email, after);
    expect(mail.subject).toBe(`Test inv-owner invited you to ${wsName} on wms`);
    expect(mail.text).toContain(`Test inv-owner invited you to join the workspace ${wsName}`);
    const link = mail.links.find((l) => new URL(l).pathname === '/invite')!;
    // PUBLIC_URL: the test cluster names its gateway `localhost`.
    expect(new URL(link).port).toBe(new URL(gatewayUrl()).port);
    const token = linkToken(mail);
    // Nothing goes out on the workspace's channels at invitation time.
    expect(
      await recordedEvents('workspace', `channel = $1 AND payload::text LIKE $2`, [workspaceChannel(ws), `%${email}%`]),
    ).toEqual([]);

    const registered = await api('POST', '/invitations/register', {
      body: { token, name: 'Newt Comer', password: 'correct-horse-1' },
      ip: randomIp(),
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const auth = registered.body as {
      access_token: string;
      token_type: string;
      user: { id: string; email: string; email_verified_at: string | null };
    };
    expect(auth.token_type).toBe('Bearer');
    expect(auth.user.email).toBe(email);
    expect(auth.user.email_verified_at).not.toBeNull();
    const newcomer = { token: auth.access_token };
    expect(await canRead(newcomer)).toBe(200);
    const me = await inWorkspace(newcomer, ws, 'GET', '/workspace/actors/me');
    expect(me.body).toMatchObject({ kind: 'user', display_name: 'Newt Comer', user_id: auth.user.id });
    const [accepted] = (await listed('accepted')).filter((i) => i.id === invitation.id);
    expect(accepted).toMatchObject({ status: 'accepted', workspace_user_id: expect.any(String) });
    const added = await addedEventsOf(auth.user.id);
    expect(added.map((e) => (e.payload.workspace_user as { id: string }).id)).toEqual([accepted!.workspace_user_id]);
    // The account signs in with its password like any other.
    expect(
      (await api('POST', '/auth/login', { body: { email, password: 'correct-horse-1' }, ip: randomIp() })).status,
    ).toBe(200);

    // The link works once.
    expectError(
      await api('POST', '/invitations/register', { body: { token, name: 'Again', password: 'correct-horse-2' } }),
      401,
      'invalid_token',
    );
  });
});

describe('an existing user invited by email', () => {
  it('sees the invitation in GET /invitations, is not a member until accepting, then is, with workspace_user.added', async () => {
    const bob = await signUp('inv-bob');
    const invitation = await invite(admin, bob.email);
    const received = await mine(bob, 'GET', '/invitations');
    expect(received.status).toBe(200);
    expect(received.body).toEqual([
      {
        invitation,
        workspace: { id: ws, name: wsName, slug: expect.any(String), avatar_id: null },
        invited_by: { display_name: 'Test inv-admin', avatar_id: null },
      },
    ]);
    expectError(await inWorkspace(bob, ws, 'GET', '/workspace'), 404, 'workspace_not_found');
    expect(await addedEventsOf(bob.userId)).toEqual([]);

    const accepted = await mine(bob, 'POST', `/invitations/${invitation.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({
      workspace_id: ws,
      user_id: bob.userId,
      role: 'member',
      user: { email: bob.email },
    });
    expect((accepted.body as { accepted_at: string | null }).accepted_at).not.toBeNull();
    expect(await canRead(bob)).toBe(200);
    expect(await addedEventsOf(bob.userId)).toHaveLength(1);
    expect((await mine(bob, 'GET', '/invitations')).body).toEqual([]);
    expectError(await mine(bob, 'POST', `/invitations/${invitation.id}/accept`), 409, 'invitation_closed');
    expectError(await mine(bob, 'POST', `/invitations/${invitation.id}/decline`), 409, 'invitation_closed');
  });

  it('signs in and accepts from the invitation page', async () => {
    const dora = await signUp('inv-dora');
    const after = new Date();
    await invite(owner, dora.email, 'admin');
    const link = (await invitationMail(dora.email, after)).links.find((l) => new URL(l).pathname === '/invite')!;
    const page = await fetch(link);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(html).toContain(`Join ${wsName}`);
    expect(html).toContain(`Test inv-owner invited ${dora.email} to the workspace ${wsName}.`);
    expect(html).toContain('action="/invite"');
    expect(html).toContain('action="/invite/accept"');
    const token = new URL(link).searchParams.get('token')!;
    const submit = (password: string) =>
      fetch(new URL('/invite/accept', gatewayUrl()), {
        method: 'POST',
        body: new URLSearchParams({ token, password }),
        headers: { 'x-forwarded-for': randomIp() },
      });
    const wrong = await submit('not-the-password');
    expect(wrong.status).toBe(401);
    expect(await canRead(dora)).toBe(404);
    const done = await submit(dora.password);
    const doneHtml = await done.text();
    expect(done.status, doneHtml).toBe(200);
    expect(doneHtml).toContain(`You joined ${wsName}`);
    expect(await canRead(dora)).toBe(200);
    expect((await inWorkspace(dora, ws, 'GET', '/workspace/users')).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: dora.userId, role: 'admin' })]),
    );
    // Used up: the page of a closed invitation is 401.
    expect((await fetch(link)).status).toBe(401);
  });

  it('answers the page of a malformed link with 400 and of an unknown one with 401', async () => {
    const page = (token: string) => fetch(new URL(`/invite?token=${token}`, gatewayUrl()));
    const malformed = await page('nope');
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain('Please check the form.');
    const unknown = await page('A'.repeat(43));
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain('The invitation link is invalid, expired or already used.');
  });

  it('registering with the link of an address that has an account is 409 account_exists and changes nothing', async () => {
    const erin = await signUp('inv-erin');
    const after = new Date();
    const invitation = await invite(owner, erin.email);
    const token = linkToken(await invitationMail(erin.email, after));
    expectError(
      await api('POST', '/invitations/register', { body: { token, name: 'Erin', password: 'correct-horse-9' } }),
      409,
      'account_exists',
    );
    expect((await listed()).map((i) => i.id)).toContain(invitation.id);
    expect(await canRead(erin)).toBe(404);
    expect((await api('POST', '/auth/login', { body: { email: erin.email, password: erin.password } })).status).toBe(
      200,
    );
  });
});

describe('closing an invitation', () => {
  it('declines: 204, listed as declined, and closed to accept', async () => {
    const fay = await signUp('inv-fay');
    const invitation = await invite(owner, fay.email);
    expect((await mine(fay, 'POST', `/invitations/${invitation.id}/decline`)).status).toBe(204);
    expect((await listed('declined')).map((i) => i.id)).toContain(invitation.id);
    expectError(await mine(fay, 'POST', `/invitations/${invitation.id}/accept`), 409, 'invitation_closed');
    expect(await canRead(fay)).toBe(404);
  });

  it('revokes: 204 (again too), the link and the invitee are refused, a member may not', async () => {
    const gus = await signUp('inv-gus');
    const after = new Date();
    const invitation = await invite(owner, gus.email);
    const token = linkToken(await invitationMail(gus.email, after));
    expectError(await as(member, 'DELETE', `/workspace/invitations/${invitation.id}`), 403, 'forbidden');
    expect((await listed()).map((i) => i.id)).toContain(invitation.id);
    expect((await as(admin, 'DELETE', `/workspace/invitations/${invitation.id}`)).status).toBe(204);
    expect((await as(owner, 'DELETE', `/workspace/invitations/${invitation.id}`)).status).toBe(204);
    expect((await listed('revoked')).map((i) => i.id)).toContain(invitation.id);
    expectError(await mine(gus, 'POST', `/invitations/${invitation.id}/accept`), 409, 'invitation_closed');
    expectError(
      await api('POST', '/invitations/register', { body: { token, name: 'Gus', password: 'correct-horse-1' } }),
      401,
      'invalid_token',
    );
    expect((await mine(gus, 'GET', '/invitations')).body).toEqual([]);
  });

  it('expires 7 days after the last sending; inviting again makes a new one', async () => {
    const hal = await signUp('inv-hal');
    const invitation = await invite(owner, hal.email);
    // The test moves the invitation's time rather than the clock: its week is over.
    await sql(`UPDATE workspace.invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      invitation.id,
    ]);
    expect((await listed('expired')).map((i) => i.id)).toContain(invitation.id);
    expect((await listed('pending')).map((i) => i.id)).not.toContain(invitation.id);
    expect((await mine(hal, 'GET', '/invitations')).body).toEqual([]);
    expectError(await mine(hal, 'POST', `/invitations/${invitation.id}/accept`), 409, 'invitation_closed');
    const again = await as(owner, 'POST', '/workspace/invitations', { email: hal.email });
    expect(again.status).toBe(201);
    expect((again.body as InvitationBody).id).not.toBe(invitation.id);
    expect((await listed('expired')).map((i) => i.id)).toContain(invitation.id);
  });
});

describe('the rules', () => {
  it('renews a pending invitation on a second invitation (200), and concurrent ones make one invitation', async () => {
    const email = uniqueEmail('twice');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => as(owner, 'POST', '/workspace/invitations', { email })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => (a.body as InvitationBody).id)).size).toBe(1);
    const after = new Date();
    const renewed = await as(admin, 'POST', '/workspace/invitations', { email, role: 'member' });
    expect(renewed.status).toBe(200);
    expect((renewed.body as InvitationBody).id).toBe((answers[0]!.body as InvitationBody).id);
    await invitationMail(email, after);
    expect((await listed()).filter((i) => i.email === email)).toHaveLength(1);
  });

  it('answers alike whether or not the address has an account', async () => {
    const known = await signUp('inv-known');
    const shape = (res: ApiResponse) => {
      const body = res.body as InvitationBody;
      return { status: res.status, fields: Object.keys(body).sort(), role: body.role, state: body.status };
    };
    const [a, b] = await Promise.all([
      as(owner, 'POST', '/workspace/invitations', { email: known.email }),
      as(owner, 'POST', '/workspace/invitations', { email: uniqueEmail('unknown') }),
    ]);
    expect(shape(a)).toEqual(shape(b));
  });

  it('refuses by role, state and input, and a refusal changes nothing', async () => {
    const email = uniqueEmail('refused');
    const before = await listed();
    await expectUnchanged(owner, ws, async () => {
      expectError(await as(member, 'POST', '/workspace/invitations', { email }), 403, 'forbidden');
      expectError(await as(admin, 'POST', '/workspace/invitations', { email, role: 'admin' }), 403, 'forbidden');
      expectError(await as(owner, 'POST', '/workspace/invitations', { email, role: 'owner' }), 400, 'invalid_role');
      const bad = expectError(
        await as(owner, 'POST', '/workspace/invitations', { email: 'nope' }),
        400,
        'invalid_input',
      );
      expect(bad.details?.map((d) => d.field)).toEqual(['body.email']);
      expectError(await as(owner, 'POST', '/workspace/invitations', { email: member.email }), 409, 'already_member');
      expectError(await as(member, 'GET', '/workspace/invitations'), 403, 'forbidden');
      expectError(await as(owner, 'GET', '/workspace/invitations?status=gone'), 400, 'invalid_input');
      expectError(await as(owner, 'GET', '/workspace/invitations?limit=0'), 400, 'invalid_input');
      expectError(await as(owner, 'GET', '/workspace/invitations?cursor=x'), 400, 'invalid_input');
      expectError(await as(owner, 'DELETE', '/workspace/invitations/not-a-uuid'), 400, 'invalid_input');
      expectError(await as(owner, 'DELETE', `/workspace/invitations/${crypto.randomUUID()}`), 404, 'not_found');
      expectError(
        await api('POST', '/invitations/register', { body: { token: 'x', name: 'N', password: 'correct-horse-1' } }),
        400,
        'invalid_input',
      );
      expectError(await api('GET', '/invitations'), 401, 'unauthenticated');
    });
    expect(await listed()).toEqual(before);
    await expectNoMail(email);
  });

  it("answers 404 to someone else's invitation, an unknown one and another workspace's", async () => {
    const ivy = await signUp('inv-ivy');
    const jon = await signUp('inv-jon');
    const invitation = await invite(owner, ivy.email);
    const unknown = crypto.randomUUID();
    for (const path of [`/invitations/${invitation.id}/accept`, `/invitations/${invitation.id}/decline`]) {
      const theirs = expectError(await mine(jon, 'POST', path), 404, 'not_found');
      const none = expectError(await mine(jon, 'POST', path.replace(invitation.id, unknown)), 404, 'not_found');
      expect(theirs.message).toBe(none.message);
    }
    const elsewhere = await createWorkspace(jon, 'Elsewhere');
    expectError(
      await inWorkspace(jon, elsewhere.id, 'DELETE', `/workspace/invitations/${invitation.id}`),
      404,
      'not_found',
    );
    expect(
      ((await inWorkspace(jon, elsewhere.id, 'GET', '/workspace/invitations')).body as { items: unknown[] }).items,
    ).toEqual([]);
    expect((await listed()).find((i) => i.id === invitation.id)?.status).toBe('pending');
    expect(await canRead(jon)).toBe(404);
  });

  it('sends at most the hourly number of invitation mails per workspace, then 429 with Retry-After, making nothing', async () => {
    const boss = await signUp('inv-boss');
    const busy = (await createWorkspace(boss, 'Busy')).id;
    const send = (email: string) => inWorkspace(boss, busy, 'POST', '/workspace/invitations', { body: { email } });
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => send(uniqueEmail('many'))));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    }
    const refused = await send(uniqueEmail('one-too-many'));
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const page = await inWorkspace(boss, busy, 'GET', '/workspace/invitations?limit=100');
    const { items, next_cursor } = page.body as { items: unknown[]; next_cursor: string | null };
    expect(items).toHaveLength(100);
    expect(next_cursor).toBeNull();
  });
});
