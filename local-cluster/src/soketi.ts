import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Soketi, the local realtime provider (Pusher protocol). How it behaves and the traps avoided here:
// shared/notes/realtime-soketi.md.

/**
 * Its own entry, run with node directly: under npx the server is a grandchild, and stopping npx would leave it
 * running with its ports.
 */
export const soketiServer = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@soketi/soketi/package.json')),
  'bin',
  'server.js',
);

/**
 * Settings only a config file can carry: cluster discovery (UDP, always on) listens on loopback instead of every
 * interface. Everything else is set by the environment, which Soketi applies over the file.
 */
export const soketiConfigFile = fileURLToPath(new URL('../soketi.json', import.meta.url));

/** What the provider sends webhooks for: presence and occupancy, which the realtime service reconciles. */
const WEBHOOK_EVENTS = ['channel_occupied', 'channel_vacated', 'member_added', 'member_removed'];

/**
 * What goes wrong on this Node, if anything: the uWebSockets build Soketi is installed with has binaries for Node 16,
 * 18 and 20 only; elsewhere it falls back to an implementation whose websocket upgrades fail.
 */
export function soketiNodeProblem(version = process.versions.node): string | undefined {
  return ['16', '18', '20'].includes(version.split('.')[0]!)
    ? undefined
    : `Soketi's websockets fail on Node ${version}; run wms on Node 20`;
}

export interface RealtimeApp {
  appId: string;
  key: string;
  secret: string;
}

/** Soketi's variables for one app, serving on loopback, its webhooks going to the gateway. */
export function soketiEnv(wiring: {
  port: number;
  metricsPort: number;
  app: RealtimeApp;
  webhookUrl: string;
}): Record<string, string> {
  return {
    SOKETI_HOST: '127.0.0.1',
    SOKETI_PORT: String(wiring.port),
    // Its /ready and /usage are always served, metrics or not; a fixed default port would clash between clusters.
    SOKETI_METRICS_HOST: '127.0.0.1',
    SOKETI_METRICS_SERVER_PORT: String(wiring.metricsPort),
    SOKETI_DEFAULT_APP_ID: wiring.app.appId,
    SOKETI_DEFAULT_APP_KEY: wiring.app.key,
    SOKETI_DEFAULT_APP_SECRET: wiring.app.secret,
    // Without it pusher-js's signin is silently ignored, so messages to a user would never arrive.
    SOKETI_DEFAULT_APP_USER_AUTHENTICATION: 'true',
    SOKETI_DEFAULT_APP_WEBHOOKS: JSON.stringify([{ url: wiring.webhookUrl, event_types: WEBHOOK_EVENTS }]),
    // Stopping takes milliseconds instead of 3 s; open sockets still get their vacate webhooks.
    SOKETI_SHUTDOWN_GRACE_PERIOD: '0',
    // Plain log lines, without the AWS SDK's end-of-support notice (Soketi loads it whatever its drivers).
    FORCE_COLOR: '0',
    AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
  };
}

/**
 * A fresh app. Every part begins with letters: Soketi reads each variable as JSON when it can, and a numeric secret
 * becomes a number that crashes it on the first private subscription.
 */
export function generateRealtimeApp(): RealtimeApp {
  return {
    appId: `wms-${randomBytes(4).toString('hex')}`,
    key: `wms-${randomBytes(10).toString('hex')}`,
    secret: `wms-${randomBytes(24).toString('hex')}`,
  };
}

/** An app kept in `file` across starts, so a client that fetched the app key before a restart can reconnect. */
export async function persistentRealtimeApp(file: string): Promise<RealtimeApp> {
  let kept: Partial<RealtimeApp> | undefined;
  try {
    kept = JSON.parse(await readFile(file, 'utf8')) as Partial<RealtimeApp>;
  } catch {
    // Missing or damaged: made anew.
  }
  if (kept && [kept.appId, kept.key, kept.secret].every((v) => typeof v === 'string' && /^wms-[0-9a-f]+$/.test(v)))
    return kept as RealtimeApp;
  const app = generateRealtimeApp();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(app, null, 2)}\n`, { mode: 0o600 });
  return app;
}
