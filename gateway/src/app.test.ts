import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { DomainError, rateLimited, unauthenticated, unavailable } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import type { Clients } from './clients.ts';
import { createMetrics } from './metrics.ts';

// The gateway alone, with its downstream clients replaced by functions that answer what each case needs: this
// tests HTTP behaviour (validation, errors, ids, the OpenAPI document), not the services.
let nextAnswer: () => Promise<unknown> = async () => ({});
const clients = new Proxy({}, { get: () => new Proxy({}, { get: () => () => nextAnswer() }) }) as Clients;

let server: Server;
let base: string;
const { app } = createApp({
  log: createLogger('gateway-test', 'silent'),
  clients,
  storage: { storage: undefined, secret: '' },
  authenticate: async (header) => {
    if (header !== 'Bearer good') throw unauthenticated('unauthenticated', 'A valid session token is required.');
    return { userId: 'u1', sessionId: 's1' };
  },
  metrics: createMetrics(),
  notReady: async () => [],
  trustProxy: 'false',
});

beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('gateway HTTP behaviour', () => {
  it('describes every route Express serves in /openapi.json', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const layers = (app as unknown as { router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> } }).router.stack;
    const served = layers.flatMap((l) => (l.route ? Object.keys(l.route.methods).map((m) => `${m} ${l.route!.path}`) : []));
    expect(served.length).toBeGreaterThan(10);
    for (const entry of served) {
      const [method, path] = entry.split(' ') as [string, string];
      const documented = path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
      expect(doc.paths[documented]?.[method], `${entry} is missing from /openapi.json`).toBeDefined();
    }
    for (const spec of ['post /auth/register', 'post /auth/magic-link', 'post /auth/recover', 'post /auth/reset-password', 'post /auth/email-code', 'post /auth/verify-code', 'post /auth/verify-email', 'post /auth/login', 'post /auth/logout', 'get /users/me', 'patch /users/me', 'get /']) {
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

  it('lists every invalid field with its location', async () => {
    const res = await post('/auth/register', JSON.stringify({ email: 'x', password: 3, extra: true }));
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; details: Array<{ field: string }> } };
    expect(error.code).toBe('invalid_input');
    expect(error.details.map((d) => d.field).sort()).toEqual(['body.email', 'body.name', 'body.password']);
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const kept = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'abc.DEF:1-2_3' } });
    expect(kept.headers.get('x-request-id')).toBe('abc.DEF:1-2_3');
    const replaced = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'bad id!' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'a'.repeat(129) } });
    expect(long.headers.get('x-request-id')).not.toBe('a'.repeat(129));
  });

  it('answers unknown routes with 404 and the error body', async () => {
    const res = await fetch(`${base}/no/such/route`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('checks the session before validating the body', async () => {
    const res = await fetch(`${base}/users/me`, { method: 'PATCH', body: '{"name": 5}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });

  it('checks the session before parsing the body: malformed JSON without a token is 401', async () => {
    const res = await fetch(`${base}/users/me`, { method: 'PATCH', body: '{"name":', headers: { 'content-type': 'application/json' } });
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
