import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError, unauthenticated } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import type { Clients } from '../clients.ts';
import { gatewayServer } from '../http-server.ts';
import { createMetrics } from '../metrics.ts';

// The realtime routes with the realtime service replaced by a recorder: what reaches it from each kind of body, and
// how its answers and errors come back. The service's own rules (socket id, channels, signature) are its tests'.

const workspace = '0190a0d8-0000-7000-8000-0000000000aa';
const actor = '0190a0d8-0000-7000-8000-0000000000bb';
const calls: Array<{ rpc: string; request: unknown; ctx: { workspaceId?: string; actorId?: string } }> = [];
let answer: (rpc: string, request: unknown) => unknown = () => ({});
const realtime = new Proxy(
  {},
  {
    get: (_, rpc: string) => async (request: unknown, ctx: { workspaceId?: string; actorId?: string }) => {
      calls.push({ rpc, request, ctx });
      return answer(rpc, request);
    },
  },
);
const clients = { realtime } as unknown as Clients;

let server: Server;
let base: string;
beforeAll(async () => {
  const { app } = createApp({
    log: createLogger('gateway-test', 'silent'),
    clients,
    storage: { storage: undefined, secret: '' },
    authenticate: async (header, workspaceHeader) => {
      if (header !== 'Bearer good') throw unauthenticated('unauthenticated', 'A valid session token is required.');
      return {
        userId: 'u1',
        sessionId: 's1',
        ...(workspaceHeader
          ? { workspace: { id: workspace, workspaceUserId: 'wu1', actorId: actor, role: 'member' } }
          : {}),
      };
    },
    metrics: createMetrics(),
    notReady: async () => [],
    trustProxy: 'false',
    uploadIdleMs: 300,
    realtimeProvider: undefined,
  });
  server = gatewayServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  calls.length = 0;
  answer = () => ({});
});

const member = { authorization: 'Bearer good', 'x-workspace-id': workspace };
const form = { ...member, 'content-type': 'application/x-www-form-urlencoded' };
const json = { ...member, 'content-type': 'application/json' };
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; details?: Array<{ field: string }> } }).error;

describe('realtime routes', () => {
  it("answers the provider's settings with the endpoints and the caller's channels", async () => {
    answer = () => ({
      app_key: 'wms-key',
      cluster: 'mt1',
      ws_host: 'localhost',
      ws_port: 8080,
      wss_port: 8080,
      ws_path: '/realtime/ws',
      force_tls: false,
    });
    const res = await fetch(`${base}/realtime/config`, { headers: member });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      provider: 'pusher',
      app_key: 'wms-key',
      cluster: 'mt1',
      ws_host: 'localhost',
      ws_port: 8080,
      wss_port: 8080,
      ws_path: '/realtime/ws',
      force_tls: false,
      channel_authorization_endpoint: '/realtime/authorize',
      user_authentication_endpoint: '/realtime/authenticate',
      channels: {
        workspace: `private-workspace-${workspace}`,
        presence: `presence-workspace-${workspace}`,
        actor: `private-actor-${actor}`,
      },
    });
    expect(calls).toMatchObject([{ rpc: 'GetRealtimeConfig', ctx: { workspaceId: workspace, actorId: actor } }]);
  });

  it("takes pusher-js's form body and a JSON body alike, passing the fields on as sent", async () => {
    answer = (rpc) =>
      rpc === 'AuthorizeChannel' ? { auth: 'wms-key:abc' } : { auth: 'wms-key:def', user_data: `{"id":"${actor}"}` };
    const channel = `presence-workspace-${workspace}`;
    const bodies: Array<[Record<string, string>, string]> = [
      [form, new URLSearchParams({ socket_id: '123.456', channel_name: channel }).toString()],
      [
        { ...form, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        `socket_id=123.456&channel_name=${encodeURIComponent(channel)}`,
      ],
      [json, JSON.stringify({ socket_id: '123.456', channel_name: channel })],
    ];
    for (const [headers, body] of bodies) {
      const res = await fetch(`${base}/realtime/authorize`, { method: 'POST', headers, body });
      expect(res.status, headers['content-type']).toBe(200);
      expect(await res.json()).toEqual({ auth: 'wms-key:abc', channel_data: null });
    }
    expect(calls.map((c) => c.request)).toEqual(bodies.map(() => ({ socket_id: '123.456', channel_name: channel })));

    answer = () => ({ auth: 'wms-key:abc', channel_data: '{"user_id":"x"}' });
    const presence = await fetch(`${base}/realtime/authorize`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ socket_id: '1.2', channel_name: channel }),
    });
    expect(await presence.json()).toEqual({ auth: 'wms-key:abc', channel_data: '{"user_id":"x"}' });

    answer = () => ({ auth: 'wms-key:def', user_data: `{"id":"${actor}"}` });
    for (const [headers, body] of [
      [form, 'socket_id=123.456'],
      [json, '{"socket_id":"123.456"}'],
    ] as const) {
      const res = await fetch(`${base}/realtime/authenticate`, { method: 'POST', headers, body });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ auth: 'wms-key:def', user_data: `{"id":"${actor}"}` });
    }
    expect(calls.filter((c) => c.rpc === 'AuthenticateUser').map((c) => c.request)).toEqual([
      { socket_id: '123.456' },
      { socket_id: '123.456' },
    ]);
  });

  it('refuses bodies that are neither JSON nor a form, and fields that are missing or repeated, before calling the service', async () => {
    const other = await fetch(`${base}/realtime/authorize`, {
      method: 'POST',
      headers: { ...member, 'content-type': 'text/plain' },
      body: 'socket_id=1.2',
    });
    expect(other.status).toBe(400);
    expect((await errorOf(other)).details).toEqual([
      { field: 'header.content-type', message: 'must be application/json or application/x-www-form-urlencoded' },
    ]);
    for (const [headers, body, fields] of [
      [form, 'channel_name=private-workspace-x', ['body.socket_id']],
      [form, 'socket_id=1.2&socket_id=3.4&channel_name=x', ['body.socket_id']],
      [json, '{"socket_id":123.456,"channel_name":"x"}', ['body.socket_id']],
      [json, '{}', ['body.socket_id', 'body.channel_name']],
    ] as const) {
      const res = await fetch(`${base}/realtime/authorize`, { method: 'POST', headers, body });
      expect(res.status, body).toBe(400);
      expect((await errorOf(res)).details!.map((d) => d.field).sort()).toEqual([...fields].sort());
    }
    const malformedJson = await fetch(`${base}/realtime/authenticate`, {
      method: 'POST',
      headers: json,
      body: '{"socket_id":',
    });
    expect((await errorOf(malformedJson)).code).toBe('invalid_json');
    // The session and workspace come first (contract §1), whatever the body.
    expect(
      (
        await fetch(`${base}/realtime/authorize`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        })
      ).status,
    ).toBe(401);
    expect(calls).toEqual([]);
  });

  it("leaves the socket id's and the channel's rules to the realtime service, whose answers come back as they are", async () => {
    answer = () => {
      throw new DomainError('invalid_argument', 'invalid_input', 'The request is invalid.', {
        details: [{ field: 'body.socket_id', message: 'must be a socket id like 1234.5678' }],
      });
    };
    const bad = await fetch(`${base}/realtime/authorize`, {
      method: 'POST',
      headers: form,
      body: 'socket_id=abc&channel_name=private-workspace-x',
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details).toEqual([
      { field: 'body.socket_id', message: 'must be a socket id like 1234.5678' },
    ]);
    expect(calls.map((c) => c.request)).toEqual([{ socket_id: 'abc', channel_name: 'private-workspace-x' }]);
    answer = () => {
      throw new DomainError('permission_denied', 'forbidden', 'You cannot subscribe to this channel.');
    };
    const refused = await fetch(`${base}/realtime/authorize`, {
      method: 'POST',
      headers: form,
      body: 'socket_id=1.2&channel_name=private-workspace-other',
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('forbidden');
  });

  it('lists presence as the service reports it', async () => {
    answer = () => ({ items: [{ actor_id: actor, status: 'online', since: '2026-11-21T18:38:41.008Z' }] });
    const res = await fetch(`${base}/realtime/presence`, { headers: member });
    expect(await res.json()).toEqual([{ actor_id: actor, status: 'online', since: '2026-11-21T18:38:41.008Z' }]);
  });

  it("passes a webhook's exact bytes and headers on without credentials, answers 204, and 401 for a bad signature", async () => {
    // Spacing and key order as the provider wrote them: the signature is over these bytes.
    const body = '{"time_ms": 1795286535117,"events":[{"channel":"private-actor-x","name":"channel_occupied"}]}\n';
    const headers = {
      'content-type': 'application/json',
      'x-pusher-key': 'wms-key',
      'x-pusher-signature': 'ab'.repeat(32),
    };
    const res = await fetch(`${base}/realtime/webhooks/pusher`, { method: 'POST', headers, body });
    expect(res.status).toBe(204);
    expect(calls).toHaveLength(1);
    const request = calls[0]!.request as { raw_body: Buffer; key: string; signature: string; content_type: string };
    expect(Buffer.from(request.raw_body).toString('utf8')).toBe(body);
    expect(request).toMatchObject({ key: 'wms-key', signature: 'ab'.repeat(32), content_type: 'application/json' });

    // Whatever the type, and with no headers at all, the service decides.
    const odd = await fetch(`${base}/realtime/webhooks/pusher`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'not json',
    });
    expect(odd.status).toBe(204);
    expect(calls[1]!.request).toMatchObject({ key: '', signature: '', content_type: 'text/plain' });
    expect(Buffer.from((calls[1]!.request as { raw_body: Buffer }).raw_body).toString()).toBe('not json');

    answer = () => {
      throw unauthenticated('invalid_signature', 'The webhook signature does not verify.');
    };
    const refused = await fetch(`${base}/realtime/webhooks/pusher`, { method: 'POST', headers, body });
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).code).toBe('invalid_signature');

    const huge = await fetch(`${base}/realtime/webhooks/pusher`, {
      method: 'POST',
      headers,
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(huge.status).toBe(400);
    expect(calls).toHaveLength(3);
  });

  it('pages catch-up events with the payload as an object, and answers an expired cursor 410 cursor_expired', async () => {
    const data = { event_id: '0190a0d8-0000-7000-8000-0000000000cc', message: { id: 'm1' } };
    answer = () => ({
      items: [
        {
          cursor: '42',
          channel: 'private-conversation-c1',
          name: 'message.created',
          data: JSON.stringify(data),
          created_at: '2026-11-21T18:38:41.008Z',
        },
      ],
      next_cursor: '42',
    });
    const res = await fetch(`${base}/events?after=41&limit=10`, { headers: member });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      items: [{ cursor: '42', channel: 'private-conversation-c1', event: 'message.created', data }],
      next_cursor: '42',
    });
    await fetch(`${base}/events`, { headers: member });
    expect(calls.map((c) => c.request)).toEqual([
      { after: '41', limit: 10 },
      { after: undefined, limit: 50 },
    ]);

    const badLimit = await fetch(`${base}/events?after=41&limit=500`, { headers: member });
    expect((await errorOf(badLimit)).details).toEqual([
      { field: 'query.limit', message: 'must be an integer from 1 to 100' },
    ]);

    answer = () => {
      throw new DomainError('gone', 'cursor_expired', 'Events after this cursor are no longer kept; reload instead.');
    };
    const expired = await fetch(`${base}/events?after=1`, { headers: member });
    expect(expired.status).toBe(410);
    expect((await errorOf(expired)).code).toBe('cursor_expired');
  });
});
