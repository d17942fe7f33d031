import { uuidv7 } from '@wms/kit/ids';
import { waitFor } from '@wms/testkit';
import pg from 'pg';
import { type Cluster, startCluster } from '@wms/local-cluster/cluster';
import { callIn, createWorkspace, eachLimited, type Session, sessionHeaders, signUp } from './api.ts';
import { type EventLoad, type EventMeasurement, measureEventPath, untriggeredEvents } from './events.ts';
import { type HttpRequest, type Load, type Measurement, measureHttp, measurePg } from './measure.ts';
import { type ProcessWatch, watchProcesses } from './processes.ts';
import { eventLines, machineLines, type Row, table } from './report.ts';

const SEED_MESSAGES = 3000;
const THREAD_ROOTS = 200;
const REPLIES_PER_ROOT = 2;
const SEED_CONCURRENCY = 16;
const MAX_FAILED_FRACTION = 0.001;
// The measured routes leave thousands of events to trigger (each POST and PUT makes one), drained at the provider's pace.
const BACKLOG_TIMEOUT_MS = 300_000;
// Each PUT adds a new (message, emoji) pair, so none is an idempotent repeat; a message holds at most 50 emoji.
const EMOJI = ['👍', '😀', '🎉', '❤️', '🚀', '👀', '🔥', '✅', '😂', '🙏', '💯', '🤔', '👏', '🌟', '🍕', '☕'];
const BODY_TEXT = 'The quick brown fox jumps over the lazy dog, then posts a status update about it.';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

const load: Load = { seconds: positiveNumber('BENCH_SECONDS', 10), connections: Math.max(1, Math.round(positiveNumber('BENCH_CONNECTIONS', 32))) };
const warmup: Load = { ...load, seconds: Math.min(2, load.seconds) };
const eventLoad: EventLoad = { rate: positiveNumber('BENCH_EVENT_RATE', 50), seconds: load.seconds };
const eventWarmup: EventLoad = { ...eventLoad, seconds: warmup.seconds };

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Warms the path up with a short run of the same load, then measures, watching what each process uses. */
async function measured(label: string, watch: ProcessWatch, measure: (load: Load) => Promise<Measurement>): Promise<Measurement> {
  progress(`${label}: warm-up ${warmup.seconds} s, then ${load.seconds} s at ${load.connections} connections`);
  await measure(warmup);
  return watch.during(label, () => measure(load), (m) => m.ok);
}

interface Seeded {
  channelId: string;
  actorId: string;
  messageIds: string[];
}

async function seed(session: Session): Promise<Seeded> {
  const { id: actorId } = await callIn<{ id: string }>(session, 'GET', '/workspace/actors/me', 200);
  const { id: channelId } = await callIn<{ id: string }>(session, 'POST', '/channels', 201, { name: 'bench' });
  const post = async (body: Record<string, string>) => (await callIn<{ id: string }>(session, 'POST', `/conversations/${channelId}/messages`, 201, body)).id;

  progress(`seeding ${SEED_MESSAGES} messages and ${THREAD_ROOTS} threads of ${REPLIES_PER_ROOT} replies`);
  const messageIds: string[] = [];
  await eachLimited(Array.from({ length: SEED_MESSAGES }, (_, i) => i), SEED_CONCURRENCY, async (i) => {
    messageIds.push(await post({ body_text: `seed message ${i}` }));
  });
  await eachLimited(Array.from({ length: THREAD_ROOTS }, (_, i) => i), SEED_CONCURRENCY, async (i) => {
    const rootId = await post({ body_text: `thread ${i}` });
    for (let r = 0; r < REPLIES_PER_ROOT; r++) await post({ body_text: `reply ${r} in thread ${i}`, parent_message_id: rootId });
    messageIds.push(rootId);
  });
  return { channelId, actorId, messageIds };
}

/** Paths over every (message, emoji) pair, messages first so that concurrent PUTs hit different rows. */
function reactionPaths(channelId: string, messageIds: readonly string[]) {
  let next = 0;
  return {
    total: messageIds.length * EMOJI.length,
    used: () => next,
    next: () => {
      const i = next++;
      const messageId = messageIds[i % messageIds.length]!;
      const emoji = EMOJI[Math.floor(i / messageIds.length) % EMOJI.length]!;
      return `/conversations/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}`;
    },
  };
}

/** One request of each measured route, so that a broken route fails here rather than as a table of 4xx. */
async function checkRoutes(session: Session, channelId: string, reactionPath: string): Promise<void> {
  const page = await callIn<{ items: unknown[] }>(session, 'GET', `/conversations/${channelId}/messages?limit=50`, 200);
  if (page.items.length !== 50) throw new Error(`a page of messages holds ${page.items.length} items, expected 50`);
  const threads = await callIn<{ items: unknown[] }>(session, 'GET', '/threads?following=false&limit=50', 200);
  if (threads.items.length !== 50) throw new Error(`a page of threads holds ${threads.items.length} items, expected 50`);
  const reactions = await callIn<{ reactions: unknown[] }>(session, 'PUT', reactionPath, 200);
  if (reactions.reactions.length === 0) throw new Error('PUT reaction answered without the reaction');
}

/** Every post must answer 201 (within the routes' failure allowance) and bring exactly one event with its id. */
function eventPathFaults(m: EventMeasurement): string[] {
  return [
    ...(m.failed > MAX_FAILED_FRACTION * m.posts ? [`${m.failed} of ${m.posts} posts failed: ${m.failures}`] : []),
    ...(m.events === 0 ? ['no event arrived'] : []),
    ...(m.missing > 0 ? [`${m.missing} posts answered 201 but brought no event within the wait`] : []),
    ...(m.extra > 0 ? [`${m.extra} events beyond one per post`] : []),
  ];
}

async function bench(cluster: Cluster): Promise<number> {
  const session = await createWorkspace(cluster.gatewayUrl, await signUp(cluster.gatewayUrl, cluster.inboxUrl));
  const { channelId, actorId, messageIds } = await seed(session);
  const reactions = reactionPaths(channelId, messageIds);
  await checkRoutes(session, channelId, reactions.next());

  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: load.connections });
  try {
    const watch = await watchProcesses(cluster, pool);
    const headers = sessionHeaders(session);
    const messagesUrl = `${cluster.gatewayUrl}/conversations/${channelId}/messages`;
    const insert = await measured('pg INSERT message', watch, (l) =>
      measurePg('pg INSERT message', l, pool, () => [
        'INSERT INTO messaging.messages (id, workspace_id, conversation_id, author_actor_id, body_text) VALUES ($1, $2, $3, $4, $5) RETURNING *',
        [uuidv7(), session.workspaceId, channelId, actorId, BODY_TEXT],
      ]),
    );
    const pageRead = await measured('pg SELECT page', watch, (l) =>
      measurePg('pg SELECT page', l, pool, () => [
        'SELECT * FROM messaging.messages WHERE conversation_id = $1 AND parent_message_id IS NULL ORDER BY id DESC LIMIT 51',
        [channelId],
      ]),
    );
    const routes: Array<{ name: string; baseline: Measurement; request: HttpRequest }> = [
      { name: 'POST message', baseline: insert, request: { url: messagesUrl, method: 'POST', body: JSON.stringify({ body_text: BODY_TEXT }) } },
      { name: 'GET page of 50', baseline: pageRead, request: { url: `${messagesUrl}?limit=50` } },
      { name: 'PUT reaction', baseline: insert, request: { url: cluster.gatewayUrl, method: 'PUT', requests: [{ setupRequest: (r) => ({ ...r, path: reactions.next() }) }] } },
      { name: 'GET /threads', baseline: pageRead, request: { url: `${cluster.gatewayUrl}/threads?following=false&limit=50` } },
    ];
    const rows: Row[] = [{ measurement: insert }, { measurement: pageRead }];
    for (const { name, baseline, request } of routes) {
      rows.push({ measurement: await measured(name, watch, (l) => measureHttp(name, l, { ...request, headers })), baseline });
    }

    // Measured events would otherwise queue behind those of the routes above, which the provider triggers in order.
    progress(`event path: waiting for the ${await untriggeredEvents(pool)} events of the routes above to be triggered`);
    await waitFor('the event backlog to drain', async () => (await untriggeredEvents(pool)) === 0, BACKLOG_TIMEOUT_MS, 500);
    progress(`event path: warm-up ${eventWarmup.seconds} s, then ${eventLoad.seconds} s at ${eventLoad.rate} posts/s`);
    await measureEventPath(session, channelId, eventWarmup, BODY_TEXT);
    const events = await watch.during('event path', () => measureEventPath(session, channelId, eventLoad, BODY_TEXT), (m) => m.posts - m.failed);

    const { rows: [postgres] } = await pool.query<{ server_version: string }>('SHOW server_version');
    console.log([...machineLines(load, warmup, postgres?.server_version ?? '?'), '', table(rows), '', ...eventLines(events, eventWarmup), '', ...watch.lines()].join('\n'));
    if (reactions.used() > reactions.total) console.log(`note: ${reactions.used()} PUTs over ${reactions.total} (message, emoji) pairs; the later ones repeated a pair`);

    const measurements = rows.map((r) => r.measurement);
    for (const m of measurements.filter((m) => m.failed > 0)) console.log(`${m.name}: ${m.failed} of ${m.ok + m.failed} failed: ${m.failures}`);
    const bad = measurements.filter((m) => m.ok === 0 || m.failed > MAX_FAILED_FRACTION * (m.ok + m.failed));
    for (const m of bad) console.error(`${m.name}: too many failures; a benchmark of failed requests measures nothing`);
    const eventFaults = eventPathFaults(events);
    for (const fault of eventFaults) console.error(`event path: ${fault}`);
    return bad.length === 0 && eventFaults.length === 0 ? 0 : 1;
  } finally {
    await pool.end();
  }
}

const aborted = new AbortController();
let cluster: Cluster | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping the cluster`);
    aborted.abort();
    if (cluster) void cluster.stop().finally(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  progress('starting the cluster (test mode; logs under .wms/logs)');
  cluster = await startCluster({ mode: 'test', logs: 'files', signal: aborted.signal });
  exitCode = await bench(cluster);
} catch (err) {
  console.error(`benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
  if (cluster?.logDir) console.error(`service logs: ${cluster.logDir}`);
} finally {
  await cluster?.stop();
}
process.exit(exitCode);
