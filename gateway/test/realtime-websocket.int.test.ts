import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unauthenticated } from '@wms/kit/errors';
import { createLogger } from '@wms/kit/logger';
import { soketiConfigFile, soketiEnv, soketiServer } from '@wms/local-cluster/soketi';
import { freePort, waitFor } from '@wms/testkit';
import PusherModule from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { rawHttp } from '../../test/e2e/support/http.ts';
import { createApp } from '../src/app.ts';
import type { Clients } from '../src/clients.ts';
import { createMetrics } from '../src/metrics.ts';
import { PROVIDER_UNAVAILABLE_CLOSE_CODE, PROVIDER_WAIT_MS, type RealtimeWebsockets } from '../src/realtime-proxy.ts';

// The gateway in front of a real Soketi, as the local cluster runs it: pusher-js, knowing only the gateway's address,
// connects through its websocket proxy, is authorized by its route (pusher-js's own form body), receives what the
// provider triggers; the provider's webhooks reach the gateway's route with bytes their signature verifies.
// The realtime service is a stand-in that signs as the real one does.

// pusher-js's types declare an ES default export, but its Node build is CommonJS whose module.exports is the class.
const Pusher = PusherModule as unknown as typeof PusherModule.default;

const app = { appId: 'wms-gw-test', key: 'wms-gw-key', secret: 'wms-gw-secret' };
const workspace = '0190a0d8-0000-7000-8000-0000000000aa';
const actor = '0190a0d8-0000-7000-8000-0000000000bb';
const member = { Authorization: 'Bearer good', 'X-Workspace-Id': workspace };
const sign = (text: string) => createHmac('sha256', app.secret).update(text).digest('hex');

const webhooks: Array<{ raw_body: Buffer; key: string; signature: string }> = [];
const realtime = {
  AuthorizeChannel: async ({ socket_id, channel_name }: { socket_id: string; channel_name: string }) => ({
    auth: `${app.key}:${sign(`${socket_id}:${channel_name}`)}`,
  }),
  AcceptWebhook: async (request: { raw_body: Buffer; key: string; signature: string }) => {
    webhooks.push(request);
    return {};
  },
};

let server: Server;
let gateway: string;
let websockets: RealtimeWebsockets;
let soketi: ChildProcess;
let soketiPort: number;
let metricsPort: number;

async function startSoketi(): Promise<void> {
  soketi = spawn(process.execPath, [soketiServer, 'start', `--config=${soketiConfigFile}`], {
    env: {
      ...process.env,
      ...soketiEnv({ port: soketiPort, metricsPort, app, webhookUrl: `${gateway}/realtime/webhooks/pusher` }),
    },
    stdio: 'ignore',
  });
  await waitFor(
    'Soketi to be ready',
    async () =>
      (await fetch(`http://127.0.0.1:${metricsPort}/ready`).catch(() => undefined))?.status === 200 || undefined,
    15_000,
  );
}

async function stopSoketi(): Promise<void> {
  soketi.kill('SIGTERM');
  await new Promise((resolve) => (soketi.exitCode === null ? soketi.once('exit', resolve) : resolve(undefined)));
}

/** A pusher-js client of the gateway, as wms's clients make it. */
function pusherClient() {
  const port = Number(new URL(gateway).port);
  return new Pusher(app.key, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: port,
    wssPort: port,
    wsPath: '/realtime/ws',
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: { endpoint: `${gateway}/realtime/authorize`, transport: 'ajax', headers: member },
  });
}

beforeAll(async () => {
  soketiPort = await freePort();
  metricsPort = await freePort();
  const made = createApp({
    log: createLogger('gateway-test', 'silent'),
    clients: { realtime } as unknown as Clients,
    storage: { storage: undefined, secret: '' },
    authenticate: async (header) => {
      if (header !== 'Bearer good') throw unauthenticated('unauthenticated', 'A valid session token is required.');
      return {
        userId: 'u1',
        sessionId: 's1',
        workspace: { id: workspace, workspaceUserId: 'wu1', actorId: actor, role: 'member' },
      };
    },
    metrics: createMetrics(),
    notReady: async () => [],
    trustProxy: 'false',
    uploadIdleMs: 1000,
    realtimeProvider: { host: '127.0.0.1', port: soketiPort, useTls: false },
  });
  websockets = made.websockets!;
  server = made.app.listen(0, '127.0.0.1');
  server.on('upgrade', websockets.upgrade);
  await new Promise((resolve) => server.once('listening', resolve));
  gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await startSoketi();
}, 30_000);

afterAll(async () => {
  if (soketi) await stopSoketi();
  await new Promise((resolve) => server?.close(resolve));
});

/** Triggers an event through Soketi's HTTP API, signed as the `pusher` SDK signs it. */
async function trigger(channel: string, name: string, data: unknown): Promise<void> {
  const path = `/apps/${app.appId}/events`;
  const body = JSON.stringify({ name, channels: [channel], data: JSON.stringify(data) });
  const params = new URLSearchParams({
    auth_key: app.key,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    body_md5: createHash('md5').update(body).digest('hex'),
  });
  params.sort();
  const query = `${params.toString()}&auth_signature=${sign(`POST\n${path}\n${decodeURIComponent(params.toString())}`)}`;
  const res = await fetch(`http://127.0.0.1:${soketiPort}${path}?${query}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  // Soketi answers its errors with HTTP 200 too.
  expect(await res.json()).toEqual({ ok: true });
}

describe('the realtime provider behind the gateway', () => {
  it('lets pusher-js connect through the gateway, subscribe with its authorization and receive events; webhooks arrive signed', async () => {
    const client = pusherClient();
    try {
      const channelName = `private-workspace-${workspace}`;
      const channel = client.subscribe(channelName);
      const received: unknown[] = [];
      channel.bind('channel.created', (data: unknown) => received.push(data));
      await new Promise<void>((resolve, reject) => {
        channel.bind('pusher:subscription_succeeded', () => resolve());
        channel.bind('pusher:subscription_error', (err: unknown) =>
          reject(new Error(`subscription failed: ${JSON.stringify(err)}`)),
        );
      });
      expect(client.connection.socket_id).toMatch(/^\d+\.\d+$/);

      await trigger(channelName, 'channel.created', { event_id: 'e1', channel: { id: 'c1' } });
      await waitFor('the event to arrive', () => (received.length > 0 ? true : undefined), 5000);
      expect(received).toEqual([{ event_id: 'e1', channel: { id: 'c1' } }]);

      const occupied = await waitFor(
        'the channel_occupied webhook',
        () => webhooks.find((w) => Buffer.from(w.raw_body).toString('utf8').includes(`"channel":"${channelName}"`)),
        5000,
      );
      expect(occupied.key).toBe(app.key);
      expect(
        timingSafeEqual(
          Buffer.from(occupied.signature, 'hex'),
          createHmac('sha256', app.secret).update(Buffer.from(occupied.raw_body)).digest(),
        ),
      ).toBe(true);
      expect(JSON.parse(Buffer.from(occupied.raw_body).toString('utf8'))).toMatchObject({
        events: [{ name: 'channel_occupied', channel: channelName }],
      });

      // The gateway's shutdown closes the websockets it serves, so its server can close.
      const disconnected = new Promise<void>((resolve) =>
        client.connection.bind(
          'state_change',
          ({ current }: { current: string }) => current !== 'connected' && resolve(),
        ),
      );
      websockets.close();
      await disconnected;
    } finally {
      client.disconnect();
    }
  });

  it('upgrades nothing but /realtime/ws, and serves nothing of the provider over plain HTTP', async () => {
    const upgrade = (path: string) =>
      rawHttp(
        gateway,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        {
          // An upgraded connection stays open: what arrived by then is the answer.
          destroyAfterMs: 1000,
        },
      );
    expect(await upgrade(`/realtime/ws/app/${app.key}?protocol=7`)).toMatch(/^HTTP\/1\.1 101 /);
    expect(await upgrade(`/realtime/wsx/app/${app.key}`)).toMatch(/^HTTP\/1\.1 404 /);
    expect(await upgrade(`/app/${app.key}`)).toMatch(/^HTTP\/1\.1 404 /);
    const api = await fetch(`${gateway}/realtime/ws/apps/${app.appId}/channels`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('holds websockets while the provider is down, passing them on once it is back or closing them with 4100', async () => {
    await stopSoketi();
    const client = pusherClient();
    try {
      const closes: number[] = [];
      // pusher-js reports a close code as a WebSocketError wrapping a PusherError.
      client.connection.bind('error', (err: { error?: { data?: { code?: number } } }) => {
        if (err.error?.data?.code !== undefined) closes.push(err.error.data.code);
      });
      // An attempt waits for the provider; not back in time, it is opened and closed with the code that has pusher-js
      // try again in a second (a refused upgrade would hold it back for its 15 s connection timeout).
      await waitFor('an attempt closed with 4100', () => closes.length > 0 || undefined, 2 * PROVIDER_WAIT_MS);
      // Back while an attempt waits: it goes through.
      const held = websocketAttempt();
      await startSoketi();
      expect(await held).toMatchObject({ firstMessage: expect.stringContaining('pusher:connection_established') });

      await waitFor('pusher-js connected again', () => client.connection.state === 'connected' || undefined, 5000);
      expect(new Set(closes)).toEqual(new Set([PROVIDER_UNAVAILABLE_CLOSE_CODE]));
      const channelName = `private-workspace-${workspace}`;
      const channel = client.subscribe(channelName);
      const received: unknown[] = [];
      channel.bind('channel.updated', (data: unknown) => received.push(data));
      await new Promise<void>((resolve) => channel.bind('pusher:subscription_succeeded', () => resolve()));
      await trigger(channelName, 'channel.updated', { event_id: 'e2' });
      await waitFor('the event after the provider came back', () => received.length > 0 || undefined, 5000);
      expect(received).toEqual([{ event_id: 'e2' }]);
    } finally {
      client.disconnect();
    }
  });
});

/** A websocket to the gateway's provider path: its first message, or its close code if it closed first. */
function websocketAttempt(): Promise<{ firstMessage: string } | { closeCode: number }> {
  const ws = new WebSocket(`${gateway.replace('http', 'ws')}/realtime/ws/app/${app.key}?protocol=7`);
  return new Promise((resolve, reject) => {
    ws.once('message', (data) => {
      resolve({ firstMessage: Buffer.from(data as Buffer).toString('utf8') });
      ws.close();
    });
    ws.once('close', (code) => resolve({ closeCode: code }));
    ws.once('error', reject);
  });
}
