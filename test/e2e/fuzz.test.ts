import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routeTable } from '../../gateway/src/app.ts';
import type { Route } from '../../gateway/src/routes/route.ts';
import { type Account, signUp } from './support/accounts.ts';
import { api, randomIp, rawHttp } from './support/http.ts';
import { image } from './support/images.ts';
import { createChannel, postText } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Every row of the gateway's route table against generated hostile input, through the real cluster: no answer may be
// a 5xx, every 4xx carries the contract's error body, and every process still serves at the end. `FUZZ_RUNS` sets the
// requests per route (a few in `pnpm test`; `pnpm fuzz` runs many), `FUZZ_SEED` replays a run.

const RUNS = Number(process.env.FUZZ_RUNS ?? 5);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const MiB = 1024 * 1024;

/** The error codes of contract §1. */
const CONTRACT_CODES = new Set([
  'invalid_json',
  'invalid_input',
  'invalid_workspace_header',
  'unauthenticated',
  'invalid_credentials',
  'email_not_verified',
  'invalid_token',
  'invalid_code',
  'rate_limited',
  'forbidden',
  'not_found',
  'workspace_not_found',
  'account_not_found',
  'already_member',
  'channel_name_taken',
  'membership_fixed',
  'not_a_channel',
  'slug_taken',
  'message_deleted',
  'thread_root_deleted',
  'asset_not_ready',
  'file_too_large',
  'size_mismatch',
  'unsupported_image',
  'image_too_large',
  'owner_protected',
  'invalid_role',
  'invalid_ownership_target',
  'wrong_conversation',
  'not_a_root_message',
  'invalid_emoji',
  'too_many_reactions',
  'invalid_signature',
  'unavailable',
  'internal',
]);

const routes = routeTable({
  clients: {} as never,
  metrics: {} as never,
  notReady: async () => [],
  storage: { storage: undefined, secret: '' },
});

/** The data the generated requests point at; made again when a request ended it (a logout, a deleted workspace). */
interface World {
  owner: Account;
  member: Account;
  ws: string;
  conv: string;
  root: string;
  reply: string;
  ownerActor: string;
  memberActor: string;
  memberWorkspaceUser: string;
  asset: string;
  /** An agent's tokens (contract §11): of the workspace, and of the conversation. */
  workspaceToken: string;
  conversationToken: string;
}

let world: World;
let png: Buffer;

async function makeWorld(): Promise<World> {
  const [owner, member] = await Promise.all([signUp('fuzz-owner'), signUp('fuzz-member')]);
  const ws = (await createWorkspace(owner)).id;
  const memberWorkspaceUser = (await addMember(owner, ws, member)).id;
  const conv = await createChannel(owner, ws);
  const root = (await postText(owner, ws, conv, 'root')).id;
  const reply = (await postText(member, ws, conv, 'reply', { parent_message_id: root })).id;
  const asset = await inWorkspace(owner, ws, 'POST', `/conversations/${conv}/assets`, {
    body: { name: 'a.png', content_type: 'image/png', size_bytes: 100 },
  });
  const agent = (
    (await inWorkspace(owner, ws, 'POST', '/workspace/actors', { body: { display_name: 'Fuzz bot' } })).body as {
      id: string;
    }
  ).id;
  const secret = async (path: string) =>
    (
      (await inWorkspace(owner, ws, 'POST', path, { body: { actor_id: agent, name: 'fuzz' } })).body as {
        token: string;
      }
    ).token;
  return {
    owner,
    member,
    ws,
    conv,
    root,
    reply,
    memberWorkspaceUser,
    workspaceToken: await secret('/workspace/tokens'),
    conversationToken: await secret(`/conversations/${conv}/tokens`),
    ownerActor: (await myActor(owner, ws)).id,
    memberActor: (await myActor(member, ws)).id,
    asset: (asset.body as { id: string }).id,
  };
}

// Generated values may point into the world: a Ref is resolved when the request is sent.
class Ref {
  constructor(readonly pick: (w: World) => string) {}
}
const ref = (pick: (w: World) => string) => fc.constant(new Ref(pick));
const resolve = (value: unknown): unknown => {
  if (value instanceof Ref) return value.pick(world);
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  return value;
};

const ids = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.oneof(
      ref((w) => w.conv),
      ref((w) => w.root),
      ref((w) => w.reply),
      ref((w) => w.ownerActor),
      ref((w) => w.memberActor),
      ref((w) => w.memberWorkspaceUser),
      ref((w) => w.asset),
      ref((w) => w.ws),
    ),
  },
  { weight: 2, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: ref((w) => w.root.toUpperCase()) },
);
const oddStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\ud83d',
  '\ud83d\ude00',
  '👩‍👩‍👧‍👦',
  '\u202egnp.exe',
  'null',
  'true',
  '0',
  '-1',
  '%',
  '%00',
  '%ZZ',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${7*7}',
  'ａｂｃ',
  '\r\nX-Injected: 1',
  '\t',
  '\uffff',
  '\ufeff',
);
const hugeStrings = fc
  .constantFrom(80, 81, 120, 121, 250, 251, 255, 256, 4096, 40_000, 40_001, 1_000_000)
  .map((n) => 'x'.repeat(n));
const strings = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 3, arbitrary: oddStrings },
  { weight: 1, arbitrary: hugeStrings },
);
const numbers = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    49,
    50,
    51,
    99,
    100,
    101,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 53 - 1,
    2 ** 53 + 2,
    10 * MiB,
    10 * MiB + 1,
    1e308,
    -1e308,
    0.5,
    1e-300,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const emoji = fc.constantFrom('👍', '🎉', '❤️', '👩‍👩‍👧‍👦', '🇫🇷', '1️⃣', '👍🏽', '👍👍', 'a', '');

/** Values that pass the gateway's schemas for a field, so that requests reach the services too. */
const validFor = (field: string): fc.Arbitrary<unknown> => {
  switch (field) {
    case 'email':
      return fc.oneof(
        fc.uuid().map((u) => `fz-${u.slice(0, 13)}@example.test`),
        ref((w) => w.member.email),
        ref((w) => w.owner.email.toUpperCase()),
      );
    case 'password':
      return fc.constantFrom('correct-horse-1', 'short', 'x'.repeat(128), 'x'.repeat(129));
    case 'token':
      return fc.constantFrom(randomBytes(32).toString('base64url'), 'x'.repeat(43));
    case 'code':
      return fc.constantFrom('123456', '000000', '12345');
    case 'slug':
      return fc.oneof(
        fc.uuid().map((u) => `fz-${u.slice(0, 8)}`),
        fc.constantFrom('ab', 'a-', 'UPPER'),
      );
    case 'role':
      return fc.constantFrom('admin', 'member', 'owner', 'guest');
    case 'name':
      return fc.oneof(
        fc.uuid().map((u) => `fz-${u.slice(0, 8)}`),
        fc.constantFrom('general', 'Ada', ' '),
      );
    case 'body_text':
    case 'display_name':
    case 'title':
    case 'topic':
    case 'client_message_id':
      return fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), hugeStrings);
    case 'content_type':
      return fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'not a type');
    case 'size_bytes':
      return fc.constantFrom(1, 100, 10 * MiB, 10 * MiB + 1, 0);
    case 'loading':
    case 'following':
      return fc.boolean();
    case 'kind':
      return fc.constantFrom('public', 'private', 'direct', 'group');
    case 'asset_ids':
    case 'mentioned_actor_ids':
    case 'member_actor_ids':
    case 'actor_ids':
      return fc.array(ids, { maxLength: 60 });
    default:
      return ids;
  }
};
const jsonValue = (field: string) =>
  fc.oneof(
    { weight: 5, arbitrary: validFor(field) },
    { weight: 3, arbitrary: strings },
    { weight: 2, arbitrary: numbers },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.oneof(strings, numbers, ids), { maxLength: 60 }),
        fc.dictionary(fc.string(), strings, { maxKeys: 3 }),
      ),
    },
  );

/** Bytes as they would be percent-encoded, or raw when `raw` (to send malformed encodings as they are). */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
const malformedSegments = fc.constantFrom(
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%00',
  '%ED%A0%80',
  '%C0%AF',
  '..',
  '%2e%2e',
  'a%2Fb',
  'x'.repeat(3000),
);
const pathValue = (name: string) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: (name === 'emoji'
        ? emoji
        : name === 'workspace_actor_id'
          ? fc.oneof(ids, fc.constant('me'))
          : ids
      ).map((v) => ({ v })),
    },
    { weight: 2, arbitrary: strings.map((v) => ({ v })) },
    { weight: 2, arbitrary: malformedSegments.map((raw) => ({ raw })) },
  );

const queryValue = (name: string) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary:
        name === 'limit'
          ? fc.constantFrom('0', '1', '50', '100', '101', '-1', '1e2', '01', 'abc', '')
          : name === 'following' || name === 'unread'
            ? fc.constantFrom('true', 'false', 'TRUE', '1', '')
            : name === 'kind'
              ? fc.constantFrom('public', 'private', 'direct', 'group')
              : ids,
    },
    { weight: 2, arbitrary: strings },
    { weight: 1, arbitrary: malformedSegments.map((raw) => ({ raw })) },
  );

const shapeOf = (schema: unknown): string[] =>
  Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});

interface Fuzzed {
  params: Record<string, unknown>;
  query: Array<[string, unknown]>;
  body:
    | { kind: 'json'; value: unknown }
    | { kind: 'text'; text: string }
    | { kind: 'multipart'; variant: string }
    | { kind: 'none' };
  contentType: string | undefined;
  auth: unknown;
  workspace: unknown;
  extraHeaders: string[];
}

function requestFor(r: Route): fc.Arbitrary<Fuzzed> {
  const paramNames = [...r.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]!);
  const params = fc.record(Object.fromEntries(paramNames.map((n) => [n, pathValue(n)])));
  const queryNames = [...shapeOf(r.query), 'junk'];
  const query = fc
    .array(fc.tuple(fc.constantFrom(...queryNames), queryValue('')), { maxLength: 4 })
    .chain((extra) =>
      fc
        .record(Object.fromEntries(shapeOf(r.query).map((n) => [n, queryValue(n)])), { requiredKeys: [] })
        .map((known) => [...Object.entries(known), ...extra] as Array<[string, unknown]>),
    );
  const fields = shapeOf(r.body);
  const jsonObject = fc
    .record(Object.fromEntries(fields.map((f) => [f, jsonValue(f)])), { requiredKeys: [] })
    .chain((known) =>
      fc
        .option(fc.tuple(fc.string(), strings), { nil: undefined })
        .map((extra) => (extra ? { ...known, [extra[0]]: extra[1] } : known)),
    );
  const malformedJson = fc.constantFrom(
    '{',
    '{"a":',
    'nul',
    '[1,2',
    '{"a":1,}',
    "{'a':1}",
    '\u0000',
    '"\\ud800"',
    `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    `{"a":"${'x'.repeat(1.1 * MiB)}"}`,
  );
  const body = r.upload
    ? fc
        .constantFrom(
          'whole',
          'cut in the file',
          'no final boundary',
          'cut in a header',
          'wrong field',
          'two files',
          'no boundary',
          'empty',
        )
        .map((variant) => ({ kind: 'multipart' as const, variant }))
    : fc.oneof(
        { weight: 6, arbitrary: jsonObject.map((value) => ({ kind: 'json' as const, value })) },
        { weight: 1, arbitrary: malformedJson.map((text) => ({ kind: 'text' as const, text })) },
        {
          weight: 1,
          arbitrary: fc
            .oneof(fc.array(strings, { maxLength: 3 }), numbers, strings, fc.constant(null))
            .map((value) => ({ kind: 'json' as const, value })),
        },
        { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/json; charset=utf-16',
        'application/x-www-form-urlencoded',
        'application/merge-patch+json',
        'multipart/form-data',
        '',
      ),
    },
  );
  const token = (pick: (w: World) => string) => ref(pick);
  const auth = fc.oneof(
    { weight: 10, arbitrary: token((w) => `Bearer ${w.owner.token}`) },
    { weight: 2, arbitrary: token((w) => `Bearer ${w.member.token}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer',
        'Bearer x.y.z',
        'Basic Zm9vOmJhcg==',
        `Bearer ${'a'.repeat(5000)}`,
      ),
    },
    { weight: 1, arbitrary: token((w) => `Bearer ${w.owner.token}x`) },
    { weight: 3, arbitrary: token((w) => `Bearer ${w.workspaceToken}`) },
    { weight: 1, arbitrary: token((w) => `Bearer ${w.conversationToken}`) },
    // Shaped like tokens: the prefixes, lengths around 43, the secret's own alphabet.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('wms_wt_', 'wms_ct_', 'wms_xt_', 'WMS_WT_', 'wms_wt'),
          fc.stringMatching(/^[A-Za-z0-9_-]{0,50}$/),
        )
        .map(([p, b]) => `Bearer ${p}${b}`),
    },
    { weight: 1, arbitrary: token((w) => `Bearer ${w.workspaceToken.slice(0, -1)}`) },
    { weight: 1, arbitrary: fc.constant('duplicate') },
  );
  const workspace = fc.oneof(
    { weight: 10, arbitrary: ref((w) => w.ws) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constant(undefined),
        fc.uuid(),
        strings,
        ref((w) => w.ws.toUpperCase()),
      ),
    },
    { weight: 1, arbitrary: fc.constant('duplicate') },
  );
  const extraHeaders = fc.array(
    fc.constantFrom(
      'X-Request-Id: has spaces',
      `X-Request-Id: ${'r'.repeat(200)}`,
      'X-Request-Id: a',
      'X-Request-Id: b',
      `X-Big: ${'b'.repeat(20_000)}`,
      'Accept: */*',
      'Content-Encoding: gzip',
      'Expect: 100-continue',
    ),
    { maxLength: 2 },
  );
  return fc.record({ params, query, body, contentType, auth, workspace, extraHeaders });
}

function multipartBody(variant: string): { contentType: string; bytes: Buffer } {
  const head = (field: string) =>
    Buffer.from(
      `--XX\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
  const file = Buffer.concat([head('file'), png]);
  const end = Buffer.from('\r\n--XX--\r\n');
  const contentType = 'multipart/form-data; boundary=XX';
  switch (variant) {
    case 'whole':
      return { contentType, bytes: Buffer.concat([file, end]) };
    case 'cut in the file':
      return { contentType, bytes: file.subarray(0, file.length - 20) };
    case 'no final boundary':
      return { contentType, bytes: Buffer.concat([file, Buffer.from('\r\n--XX')]) };
    case 'cut in a header':
      return { contentType, bytes: file.subarray(0, 30) };
    case 'wrong field':
      return { contentType, bytes: Buffer.concat([head('other'), png, end]) };
    case 'two files':
      return { contentType, bytes: Buffer.concat([file, Buffer.from('\r\n'), file, end]) };
    case 'no boundary':
      return { contentType: 'multipart/form-data', bytes: Buffer.concat([file, end]) };
    default:
      return { contentType, bytes: Buffer.alloc(0) };
  }
}

function rawRequest(r: Route, f: Fuzzed): { description: string; bytes: Buffer } {
  const segment = (value: unknown) => {
    const v = value as { v?: unknown; raw?: string };
    return v.raw ?? percentEncode(String(resolve(v.v)));
  };
  const path = r.path.replace(/[:*](\w+)/g, (_, name: string) => segment(f.params[name]));
  const query = f.query
    .map(([k, v]) => `${percentEncode(k)}=${(v as { raw?: string }).raw ?? percentEncode(String(resolve(v)))}`)
    .join('&');
  const target = query ? `${path}?${query}` : path;
  let body: Buffer = Buffer.alloc(0);
  let contentType = f.contentType;
  if (f.body.kind === 'json') {
    body = Buffer.from(JSON.stringify(resolve(f.body.value)) ?? 'null');
    contentType ??= 'application/json';
  } else if (f.body.kind === 'text') {
    body = Buffer.from(f.body.text);
    contentType ??= 'application/json';
  } else if (f.body.kind === 'multipart') {
    const made = multipartBody(f.body.variant);
    body = made.bytes;
    contentType ??= made.contentType;
  }
  const headers = [`Host: 127.0.0.1`, `X-Forwarded-For: ${randomIp()}`, 'Connection: close'];
  const auth = resolve(f.auth);
  if (auth === 'duplicate')
    headers.push(`Authorization: Bearer ${world.owner.token}`, `Authorization: Bearer ${world.member.token}`);
  else if (typeof auth === 'string') headers.push(`Authorization: ${auth}`);
  const ws = resolve(f.workspace);
  if (ws === 'duplicate') headers.push(`X-Workspace-Id: ${world.ws}`, `X-Workspace-Id: ${randomUUID()}`);
  // A header value cannot hold CR, LF or NUL on the wire; those are sent percent-encoded instead.
  else if (typeof ws === 'string')
    headers.push(`X-Workspace-Id: ${ws.replace(/[\r\n]|\0/g, encodeURIComponent).replace(/[^\u0020-\u007e]/g, '?')}`);
  headers.push(...f.extraHeaders);
  if (contentType) headers.push(`Content-Type: ${contentType}`);
  if (f.body.kind !== 'none') headers.push(`Content-Length: ${body.length}`);
  const head = `${r.method.toUpperCase()} ${target} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`;
  const description = `${r.method.toUpperCase()} ${target.slice(0, 300)} ${headers
    .filter((h) => !h.startsWith('Authorization'))
    .join(' | ')
    .slice(0, 300)} body: ${body.subarray(0, 300).toString()}`;
  return { description, bytes: Buffer.concat([Buffer.from(head), body]) };
}

/** The answer's status, and a reason it breaks the contract (undefined when it keeps it). */
function judge(whole: string): { status: number; broken?: string } {
  // Interim answers (100 Continue) come before the one that counts.
  let answer = whole;
  while (/^HTTP\/1\.1 1\d\d /.test(answer)) answer = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  const end = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, end);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  if (status === 0) return { status, broken: 'no answer' };
  if (status >= 500) return { status, broken: `answered ${status}: ${answer.slice(end + 4, end + 500)}` };
  if (status < 400) return { status };
  let error: {
    code?: unknown;
    message?: unknown;
    request_id?: unknown;
    details?: Array<{ field?: unknown; message?: unknown }>;
  };
  try {
    error = (JSON.parse(answer.slice(end + 4)) as { error: typeof error }).error;
  } catch {
    return { status, broken: `a ${status} without a JSON error body: ${answer.slice(0, 300)}` };
  }
  const requestId = /^x-request-id: (.*)$/im.exec(head)?.[1];
  if (typeof error?.code !== 'string' || !CONTRACT_CODES.has(error.code))
    return { status, broken: `unknown error code ${String(error?.code)}` };
  if (typeof error.message !== 'string' || error.message === '') return { status, broken: 'no message' };
  if (error.request_id !== requestId)
    return { status, broken: `request_id ${String(error.request_id)} is not the X-Request-Id ${requestId}` };
  if (error.code === 'invalid_input') {
    const fields = error.details?.map((d) => d.field) ?? [];
    if (
      fields.length === 0 ||
      !fields.every((f) => typeof f === 'string' && /^(body|query|path|header)(\.|$)/.test(f))
    ) {
      return { status, broken: `invalid_input with details ${JSON.stringify(error.details)}` };
    }
  }
  return { status };
}

// Requests after which the world must be made again: the session or the workspace they ended.
const ending = new Set([
  'post /auth/logout',
  'delete /workspace',
  'put /workspace/owner',
  'delete /workspace/users/:workspace_user_id',
  'patch /workspace/users/:workspace_user_id',
]);

describe('fuzzing every route', () => {
  const statuses = new Map<string, number>();

  beforeAll(async () => {
    png = await image('png', 32, 32);
    world = await makeWorld();
  });

  afterAll(() => {
    if (process.env.FUZZ_RUNS) console.log('statuses seen:', Object.fromEntries([...statuses].sort()));
  });

  for (const r of routes) {
    const name = `${r.method} ${r.path}`;
    it(`${name}: no 5xx, the contract's error body on every 4xx`, { timeout: 60_000 + RUNS * 3000 }, async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(r), async (fuzzed) => {
          const { description, bytes } = rawRequest(r, fuzzed);
          const verdict = judge(await rawHttp(inject('gatewayUrl'), bytes, { destroyAfterMs: 20_000 }));
          statuses.set(String(verdict.status), (statuses.get(String(verdict.status)) ?? 0) + 1);
          if (ending.has(name) && verdict.status < 300) world = await makeWorld();
          if (verdict.broken) throw new Error(`${verdict.broken}\n  request: ${description}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }

  it('leaves every process serving', async () => {
    const ready = await api('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect((await inWorkspace(world.owner, world.ws, 'GET', `/conversations/${world.conv}/messages`)).status).toBe(200);
  });
});
