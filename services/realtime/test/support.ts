import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from '@wms/testkit';
import PusherModule from 'pusher-js';

// The package's types describe an ES module; in Node it is CommonJS whose export is the class itself.
const PusherClient = PusherModule as unknown as typeof PusherModule.default;
type PusherClient = InstanceType<typeof PusherClient>;
import type { ProviderSettings } from '../src/domain/provider.ts';

// A real Soketi for the tests where the provider matters: started as the local cluster starts it (node on its own
// server.js, loopback only, the app from the environment), on free ports, each test file its own.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const soketiServer = path.join(
  path.dirname(createRequire(path.join(repoRoot, 'local-cluster/package.json')).resolve('@soketi/soketi/package.json')),
  'bin',
  'server.js',
);

export interface TestSoketi {
  settings: ProviderSettings;
  /** Where clients connect (ws://127.0.0.1:port). */
  port: number;
  /** The running process's id (for SIGSTOP and SIGCONT). */
  readonly pid: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  destroy(): Promise<void>;
}

/** An app whose parts start with letters: Soketi reads a numeric secret as a number and crashes on it. */
const app = () => ({
  appId: `app-${randomBytes(3).toString('hex')}`,
  key: `key-${randomBytes(8).toString('hex')}`,
  secret: `secret-${randomBytes(16).toString('hex')}`,
});

/**
 * `app`: the app of another node (nodes of one provider serve the same apps); `env`: more of Soketi's settings, such as
 * its Redis adapter's.
 */
export async function startSoketi(
  o: { webhookUrl?: string; app?: ReturnType<typeof app>; env?: Record<string, string> } = {},
): Promise<TestSoketi> {
  const a = o.app ?? app();
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(tmpdir(), 'soketi-'));
  // Cluster discovery (UDP, always on) on loopback: a setting only its config file carries.
  writeFileSync(path.join(dir, 'soketi.json'), JSON.stringify({ 'cluster.address': '127.0.0.1' }));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    SOKETI_HOST: '127.0.0.1',
    SOKETI_PORT: String(port),
    SOKETI_METRICS_HOST: '127.0.0.1',
    SOKETI_METRICS_SERVER_PORT: String(metricsPort),
    SOKETI_DEFAULT_APP_ID: a.appId,
    SOKETI_DEFAULT_APP_KEY: a.key,
    SOKETI_DEFAULT_APP_SECRET: a.secret,
    SOKETI_DEFAULT_APP_USER_AUTHENTICATION: 'true',
    SOKETI_SHUTDOWN_GRACE_PERIOD: '0',
    AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
    ...(o.webhookUrl
      ? {
          SOKETI_DEFAULT_APP_WEBHOOKS: JSON.stringify([
            {
              url: o.webhookUrl,
              event_types: ['channel_occupied', 'channel_vacated', 'member_added', 'member_removed'],
            },
          ]),
        }
      : {}),
    ...o.env,
  };
  let child: ChildProcess | undefined;
  const output: string[] = [];
  const start = async () => {
    child = spawn(process.execPath, [soketiServer, 'start', `--config=${path.join(dir, 'soketi.json')}`], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    const started = child;
    // Soketi says it is up even when its port was taken, so ready means its own metrics port answers and the API
    // port knows this app.
    await waitFor(
      `soketi on ${port} (${output.join('').slice(-500)})`,
      async () => {
        if (started.exitCode !== null) throw new Error(`soketi exited: ${output.join('').slice(-1000)}`);
        const ready = await fetch(`http://127.0.0.1:${metricsPort}/ready`).then(
          (r) => r.ok,
          () => false,
        );
        const api =
          ready &&
          (await fetch(`http://127.0.0.1:${port}/`).then(
            (r) => r.ok,
            () => false,
          ));
        return api;
      },
      20_000,
    );
  };
  await start();
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await exited;
  };
  return {
    settings: { appId: a.appId, key: a.key, secret: a.secret, host: '127.0.0.1', port, useTls: false, cluster: 'mt1' },
    port,
    get pid() {
      if (child?.pid === undefined || child.exitCode !== null) throw new Error(`soketi on ${port} is not running`);
      return child.pid;
    },
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A pusher-js client of the provider whose channel authorization and user sign-in go to `authorize` (as the gateway
 * would hand them to the realtime service).
 */
export function connectClient(
  s: TestSoketi,
  authorize: (socketId: string, channel: string) => Promise<{ auth: string; channel_data?: string }>,
  authenticate?: (socketId: string) => Promise<{ auth: string; user_data: string }>,
): PusherClient {
  const reject = async () => Promise.reject(new Error('no user authentication in this test'));
  return new PusherClient(s.settings.key, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: s.port,
    wssPort: s.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: (
        { socketId, channelName }: { socketId: string; channelName: string },
        callback: (err: Error | null, auth: { auth: string; channel_data?: string } | null) => void,
      ) => {
        authorize(socketId, channelName).then(
          (auth) => callback(null, auth),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
        );
      },
    },
    userAuthentication: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: (
        { socketId }: { socketId: string },
        callback: (err: Error | null, auth: { auth: string; user_data: string } | null) => void,
      ) => {
        (authenticate ?? reject)(socketId).then(
          (auth) => callback(null, auth),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
        );
      },
    },
  });
}

/** Resolves when the subscription succeeded, rejects when the provider refused it. */
export function subscribed(client: PusherClient, channel: string): Promise<ReturnType<PusherClient['subscribe']>> {
  const ch = client.subscribe(channel);
  return new Promise((resolve, reject) => {
    ch.bind('pusher:subscription_succeeded', () => resolve(ch));
    ch.bind('pusher:subscription_error', (err: unknown) =>
      reject(Object.assign(new Error(`subscription refused: ${JSON.stringify(err)}`), { cause: err })),
    );
  });
}

/** A stand-in for the gateway's webhook route: the raw body and the two headers, handed to `accept`. */
export async function startWebhookReceiver(
  accept: (w: { rawBody: Buffer; key: string; signature: string }) => Promise<void>,
): Promise<{ url: string; server: Server; received: number; dropping: boolean; close(): Promise<void> }> {
  const state = { received: 0, dropping: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.received++;
      if (state.dropping) return void res.writeHead(204).end();
      accept({
        rawBody: Buffer.concat(chunks),
        key: String(req.headers['x-pusher-key'] ?? ''),
        signature: String(req.headers['x-pusher-signature'] ?? ''),
      }).then(
        () => res.writeHead(204).end(),
        () => res.writeHead(401).end(),
      );
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/realtime/webhooks/pusher`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
