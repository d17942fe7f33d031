import { type AddressInfo, connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { DomainError, rateLimited, unauthenticated, unavailable } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRawAnswer, rawHttp } from '../../test/e2e/support/http.ts';
import { createApp } from './app.ts';
import { gatewayServer } from './http-server.ts';
import type { Clients } from './clients.ts';
import { createMetrics } from './metrics.ts';

// The gateway alone, with its downstream clients replaced by functions that answer what each case needs: this
// tests HTTP behaviour (validation, errors, ids, the OpenAPI document), not the services.
let nextAnswer: (request: unknown) => Promise<unknown> = async () => ({});
const clients = new Proxy(
  {},
  { get: () => new Proxy({}, { get: () => (request: unknown) => nextAnswer(request) }) },
) as Clients;

let server: Server;
let base: string;
/** The gateway's log lines, as JSON. */
const logged: Array<Record<string, unknown>> = [];
const { app } = createApp({
  log: createLogger('gateway-test', 'info', {
    write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
  }),
  clients,
  storage: { storage: undefined, secret: '' },
  authenticate: async (header) => {
    if (header !== 'Bearer good') throw unauthenticated('unauthenticated', 'A valid session token is required.');
    return { userId: 'u1', sessionId: 's1' };
  },
  metrics: createMetrics(),
  notReady: async () => [],
  trustProxy: 'false',
  uploadIdleMs: 300,
  realtimeProvider: undefined,
});

beforeAll(async () => {
  server = gatewayServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('gateway HTTP behaviour', () => {
  it('describes every route Express serves in /openapi.json', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const layers = (
      app as unknown as { router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> } }
    ).router.stack;
    const served = layers.flatMap((l) =>
      l.route ? Object.keys(l.route.methods).map((m) => `${m} ${l.route!.path}`) : [],
    );
    expect(served.length).toBeGreaterThan(10);
    for (const entry of served) {
      const [method, path] = entry.split(' ') as [string, string];
      const documented = path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
      expect(doc.paths[documented]?.[method], `${entry} is missing from /openapi.json`).toBeDefined();
    }
    for (const spec of [
      'post /auth/register',
      'post /auth/magic-link',
      'post /auth/recover',
      'post /auth/reset-password',
      'post /auth/email-code',
      'post /auth/verify-code',
      'post /auth/verify-email',
      'post /auth/login',
      'post /auth/logout',
      'get /users/me',
      'patch /users/me',
      'get /',
    ]) {
      expect(served, spec).toContain(spec);
    }
  });

  it('answers malformed JSON with 400 invalid_json and the error body', async () => {
    const res = await post('/auth/login', '{"email":');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe('invalid_json');
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('says what is wrong with a JSON body sent without the JSON content type, before reading it', async () => {
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      {},
    ] as Array<Record<string, string>>) {
      const res = await fetch(`${base}/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ email: 'a@b.io', password: 'x' }),
        headers,
      });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; details: unknown } };
      expect(error.code).toBe('invalid_input');
      expect(error.details).toEqual([{ field: 'header.content-type', message: 'must be application/json' }]);
    }
    nextAnswer = async () => ({ access_token: 't', token_type: 'Bearer', user: {}, expires_at: null });
    const typed = await fetch(`${base}/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: 'a@b.io', password: 'x' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(typed.status).toBe(200);
    const upload = await fetch(`${base}/workspace/avatar`, {
      method: 'PUT',
      body: 'x',
      headers: {
        authorization: 'Bearer good',
        'x-workspace-id': '0190a0d8-0000-7000-8000-000000000004',
        'content-type': 'image/png',
      },
    });
    expect(((await upload.json()) as { error: { details: Array<{ field: string }> } }).error.details[0]!.field).toBe(
      'header.content-type',
    );
  });

  it('lists every invalid field with its location', async () => {
    const res = await post('/auth/register', JSON.stringify({ email: 1, password: 3, extra: true }));
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; details: Array<{ field: string }> } };
    expect(error.code).toBe('invalid_input');
    expect(error.details.map((d) => d.field).sort()).toEqual(['body.email', 'body.name', 'body.password']);
  });

  it("leaves a service's own field rules to it: the values reach it as sent", async () => {
    let seen: unknown;
    nextAnswer = async (request) => {
      seen = request;
      return { email: 'x' };
    };
    const sent = { email: ' not-an-email ', password: 'short', name: ' ' };
    expect((await post('/auth/register', JSON.stringify(sent))).status).toBe(201);
    expect(seen).toEqual(sent);
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const kept = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'abc.DEF:1-2_3' } });
    expect(kept.headers.get('x-request-id')).toBe('abc.DEF:1-2_3');
    const replaced = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'bad id!' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'a'.repeat(129) } });
    expect(long.headers.get('x-request-id')).not.toBe('a'.repeat(129));
  });

  it('answers requests the HTTP parser refuses with the error body: oversized headers 431, a malformed request 400', async () => {
    for (const [request, status] of [
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
      ['NOT A REQUEST\r\n\r\n', 400],
    ] as const) {
      const answer = parseRawAnswer(await rawHttp(base, request));
      expect(answer.status).toBe(status);
      const error = (answer.body as { error: { code: string; request_id: string } }).error;
      expect(error.code).toBe('invalid_input');
      expect(answer.headers).toContain(`X-Request-Id: ${error.request_id}`);
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // Pipelined after a good request, a malformed one cannot cut into the good one's answer.
    const pipelined = await rawHttp(base, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nNOT A REQUEST\r\n\r\n');
    expect(pipelined).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\{"status":"ok"\}/);
  });

  it('reads and drops the rest of a request it refused unread, so a client still sending its body is not reset', async () => {
    let serverSide: Socket | undefined;
    server.once('connection', (s: Socket) => (serverSide = s));
    // Half open, as a client that sends its whole request before it reads: the server's end does not end it.
    const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    let failure: Error | undefined;
    socket.on('error', (err) => (failure = err));
    let received = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()) && resolve()),
    );
    const write = (chunk: string | Buffer) => new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
    await write(
      `POST /auth/login HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n`,
    );
    await answered;
    // The body goes on arriving after the answer: it is read and dropped (every byte sent is read), not answered with
    // a reset, which would come when the server closed with bytes unread.
    for (let i = 0; i < 4; i++) await write(Buffer.alloc(64 * 1024, 'x'));
    await expect.poll(() => serverSide?.bytesRead, { timeout: 10_000 }).toBe(socket.bytesWritten);
    await new Promise((resolve) => socket.once('close', resolve).end());
    expect(failure).toBeUndefined();
    expect(parseRawAnswer(received).status).toBe(431);
  });

  it('keeps the connection open after an error answered to a request without a body', async () => {
    const answer = await rawHttp(base, 'GET /no/such/route HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toMatch(/connection: keep-alive/i);
  });

  it('logs and counts every request once, unmatched ones too, with route, status, error code and duration', async () => {
    logged.length = 0;
    const res = await fetch(`${base}/no/such/thing`, { headers: { 'x-request-id': 'log-probe-1' } });
    expect(res.status).toBe(404);
    await fetch(`${base}/users/me`, { headers: { 'x-request-id': 'log-probe-2' } });
    await expect
      .poll(() => logged.filter((l) => l.msg === 'request' && String(l.request_id).startsWith('log-probe')).length, {
        timeout: 10_000,
      })
      .toBe(2);
    const lines = logged.filter((l) => l.msg === 'request');
    expect(lines.find((l) => l.request_id === 'log-probe-1')).toMatchObject({
      method: 'GET',
      route: 'unmatched',
      status: 404,
      code: 'not_found',
      ms: expect.any(Number),
    });
    expect(lines.find((l) => l.request_id === 'log-probe-2')).toMatchObject({
      method: 'GET',
      route: '/users/me',
      status: 401,
      code: 'unauthenticated',
    });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(
      /wms_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} \d+/,
    );
  });

  it('answers without an ETag, so that no body is hashed to make one', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('ok');
    expect(res.headers.get('etag')).toBeNull();
  });

  it("makes each request and response with Express's prototypes, so that Express need not change them", async () => {
    const made: boolean[] = [];
    const before = (req: object, res: object) =>
      made.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    server.prependListener('request', before);
    try {
      expect((await fetch(`${base}/`)).status).toBe(200);
      expect((await fetch(`${base}/no/such/route`)).status).toBe(404);
    } finally {
      server.off('request', before);
    }
    expect(made).toEqual([true, true]);
  });

  it('answers unknown routes with 404 and the error body', async () => {
    const res = await fetch(`${base}/no/such/route`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('checks the session before validating the body', async () => {
    const res = await fetch(`${base}/users/me`, {
      method: 'PATCH',
      body: '{"name": 5}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
  });

  it('checks the session before parsing the body: malformed JSON without a token is 401', async () => {
    const res = await fetch(`${base}/users/me`, {
      method: 'PATCH',
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it('maps domain errors to their HTTP status, with Retry-After on 429', async () => {
    const cases: Array<[DomainError, number]> = [
      [rateLimited(7), 429],
      [unavailable(), 503],
      [new DomainError('failed_precondition', 'message_deleted', 'gone'), 409],
      [new DomainError('permission_denied', 'forbidden', 'no'), 403],
      [new DomainError('not_found', 'not_found', 'no'), 404],
      [new DomainError('gone', 'cursor_expired', 'no longer kept'), 410],
    ];
    for (const [error, status] of cases) {
      nextAnswer = async () => {
        throw error;
      };
      const res = await post('/auth/login', JSON.stringify({ email: 'a@b.io', password: 'x' }));
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(error.code);
      if (status === 429) expect(res.headers.get('retry-after')).toBe('7');
    }
  });

  it('hides the details of unexpected failures behind 500 internal', async () => {
    nextAnswer = async () => {
      throw new Error('connection string postgres://secret@db');
    };
    const res = await post('/auth/login', JSON.stringify({ email: 'a@b.io', password: 'x' }));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain('"internal"');
    expect(text).not.toContain('secret');
  });
});

const rawRequest = (head: string, body: string, options: { destroyAfterMs?: number } = {}) =>
  rawHttp(base, head + body, options);

const part = (field = 'file') =>
  `--XX\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabcdefgh`;

describe('gateway uploads', () => {
  const uploadRoutes = [
    '/workspace/avatar',
    '/workspace/actors/0190a0d8-0000-7000-8000-000000000001/avatar',
    '/conversations/0190a0d8-0000-7000-8000-000000000002/assets/0190a0d8-0000-7000-8000-000000000003/content',
  ];
  const head = (path: string, contentLength: number, requestId: string = randomUUID()) =>
    `PUT ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nX-Workspace-Id: 0190a0d8-0000-7000-8000-000000000004\r\n` +
    `X-Request-Id: ${requestId}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${contentLength}\r\n\r\n`;
  /** What the service was given: nothing, a whole file, or a stream that failed. */
  let downstream: string[] = [];
  beforeAll(() => {
    nextAnswer = async (request) => {
      if (request && typeof request === 'object' && Symbol.asyncIterator in request) {
        try {
          for await (const _ of request as AsyncIterable<unknown>);
          downstream.push('stream completed');
        } catch (err) {
          // As the real client does: a failing source fails the call.
          downstream.push(`stream failed: ${(err as DomainError).code}`);
          throw err;
        }
      } else downstream.push('file');
      return {};
    };
  });

  const endings: Array<[string, string]> = [
    ['truncated in a part header', '--XX\r\nContent-Disposition: form-da'],
    ['truncated inside the file', part()],
    ['without the final boundary', `${part()}\r\n--XX`],
    ['truncated in a second part header', `${part()}\r\n--XX\r\nContent-Dispo`],
    ['with a malformed part header', '--XX\r\nno colon here\r\n\r\nabc\r\n--XX--\r\n'],
    ['without the file field', `${part('other')}\r\n--XX--\r\n`],
  ];
  for (const path of uploadRoutes) {
    for (const [how, body] of endings) {
      it(`refuses a body ${how} on PUT ${path.split('/')[1]}…${path.split('/').at(-1)} with 400 invalid_input, passing no file on`, async () => {
        downstream = [];
        const answer = await rawRequest(head(path, Buffer.byteLength(body)), body);
        expect(answer).toMatch(/^HTTP\/1\.1 400 /);
        const error = JSON.parse(answer.split('\r\n\r\n')[1]!).error as { code: string; details: unknown[] };
        expect(error.code).toBe('invalid_input');
        expect(error.details.length).toBeGreaterThan(0);
        expect(downstream.filter((d) => d === 'file' || d === 'stream completed')).toEqual([]);
      });
    }
  }

  it('accepts a well-formed upload on every route (the refusals above are not refusing everything)', async () => {
    for (const path of uploadRoutes) {
      downstream = [];
      const body = `${part()}\r\n--XX--\r\n`;
      expect(await rawRequest(head(path, Buffer.byteLength(body)), body)).toMatch(/^HTTP\/1\.1 200 /);
      expect(downstream).toEqual([path.endsWith('/content') ? 'stream completed' : 'file']);
    }
  });

  it('survives clients that cut the connection inside the file, and fails the stream passed on', async () => {
    for (const path of uploadRoutes) {
      downstream = [];
      const body = part();
      await rawRequest(head(path, Buffer.byteLength(body) + 1000), body, { destroyAfterMs: 50 });
      if (path.endsWith('/content'))
        await expect.poll(() => downstream, { timeout: 10_000 }).toEqual(['stream failed: invalid_input']);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect(downstream).not.toContain('file');
    }
  });

  it('refuses a stalled upload after the idle timeout and closes its connection', async () => {
    for (const path of uploadRoutes) {
      downstream = [];
      const body = part();
      const answer = await rawRequest(head(path, Buffer.byteLength(body) + 1000), body);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toContain('The upload stalled.');
      expect(downstream.filter((d) => d === 'file' || d === 'stream completed')).toEqual([]);
    }
  });

  it('reads an oversized file to its end to answer file_too_large, and cuts off a client that goes on far past it', async () => {
    for (const path of uploadRoutes) {
      downstream = [];
      const over = `${part()}${'x'.repeat(10 * 1024 * 1024 + 64 * 1024)}\r\n--XX--\r\n`;
      const answer = parseRawAnswer(await rawRequest(head(path, Buffer.byteLength(over)), over));
      expect(answer.status, path).toBe(400);
      expect((answer.body as { error: { code: string } }).error.code).toBe('file_too_large');
      // 25 MiB of an announced 100 MiB: cut at twice the limit (the gateway closes the connection), not read on until
      // the client stalls. Closing with the client's bytes unread resets the connection, which may discard the answer
      // before the client reads it, so the answer is read from the gateway's log.
      const requestId = `cut-${randomUUID()}`;
      const client = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' })
        .on('error', () => {})
        .resume();
      client.write(`${head(path, 100 * 1024 * 1024, requestId)}${part()}${'x'.repeat(25 * 1024 * 1024)}`);
      await new Promise((resolve) => client.once('close', resolve));
      await expect
        .poll(() => logged.find((l) => l.msg === 'request' && l.request_id === requestId), { timeout: 10_000 })
        .toMatchObject({ status: 400, code: 'file_too_large' });
      expect(downstream.filter((d) => d === 'file' || d === 'stream completed')).toEqual([]);
    }
  });

  it('names the parameter whose percent-encoding is malformed, after the session check', async () => {
    const res = await fetch(`${base}/workspace/actors/%ZZ`, {
      headers: { authorization: 'Bearer good', 'x-workspace-id': '0190a0d8-0000-7000-8000-000000000004' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: unknown } }).error.details).toEqual([
      { field: 'path.workspace_actor_id', message: 'malformed percent-encoding' },
    ]);
    const second = await fetch(`${base}/conversations/0190a0d8-0000-7000-8000-000000000002/messages/%E0%A4%A`, {
      headers: { authorization: 'Bearer good', 'x-workspace-id': '0190a0d8-0000-7000-8000-000000000004' },
    });
    expect(((await second.json()) as { error: { details: Array<{ field: string }> } }).error.details[0]!.field).toBe(
      'path.message_id',
    );
    expect((await fetch(`${base}/workspace/actors/%ZZ`)).status).toBe(401);
    // No route answers DELETE there, encoding or not.
    expect(
      (await fetch(`${base}/workspace/actors/%ZZ`, { method: 'DELETE', headers: { authorization: 'Bearer good' } }))
        .status,
    ).toBe(404);
  });

  it('refuses strings Postgres cannot store in the body and the query, naming the field, and ignores unknown fields', async () => {
    for (const [text, field] of [
      ['{"name":"a\\u0000b"}', 'body.name'],
      ['{"name":"a\\ud800b"}', 'body.name'],
      ['{"name":"\\udc00"}', 'body.name'],
    ]) {
      const res = await fetch(`${base}/users/me`, {
        method: 'PATCH',
        body: text,
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
      });
      expect(res.status, text).toBe(400);
      expect(
        ((await res.json()) as { error: { details: Array<{ field: string }> } }).error.details.map((d) => d.field),
      ).toEqual([field]);
    }
    nextAnswer = async () => ({ id: 'u1', email: 'a@b.io', name: 'x', created_at: '', updated_at: '' });
    const paired = await fetch(`${base}/users/me`, {
      method: 'PATCH',
      body: '{"name":"a\\ud83d\\ude00b","junk":"\\u0000"}',
      headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
    });
    expect(paired.status).toBe(200);
    const query = await fetch(`${base}/saved-messages?cursor=a%00b`, {
      headers: { authorization: 'Bearer good', 'x-workspace-id': '0190a0d8-0000-7000-8000-000000000004' },
    });
    expect(query.status).toBe(400);
    expect(
      ((await query.json()) as { error: { details: Array<{ field: string }> } }).error.details.map((d) => d.field),
    ).toEqual(['query.cursor']);
  });
});
