import { uuidv7 } from '@wms/kit/ids';
import { startTestPostgres, type TestDependency, waitFor } from '@wms/testkit';
import pg from 'pg';
import { type Cluster, replicasFromEnv, startCluster } from '@wms/local-cluster/cluster';
import { callIn, createWorkspace, eachLimited, registerAccount, type Session, sessionHeaders, signUp } from './api.ts';
import { type EventLoad, type EventMeasurement, measureEventPath, untriggeredEvents } from './events.ts';
import { errorsGoal, goalLines, openLoopGoal, p99Goal, ratioGoal, scaleGoal, signInGoal } from './goals.ts';
import {
  BODY_TEXT,
  type HttpRequest,
  type Load,
  loadFromEnv,
  type Measurement,
  measureHttp,
  measurePg,
  positiveNumber,
} from './measure.ts';
import { measureParsing, parseGoal, parseLines } from './parse.ts';
import { measureOpenLoop, type OpenLoad, type OpenLoopMeasurement, type OpenRequest } from './open-loop.ts';
import { type ProcessWatch, watchProcesses } from './processes.ts';
import { eventLines, machineLines, openLoopLines, type Row, table } from './report.ts';
import {
  cursorPages,
  SEARCH_COMMON,
  SEARCH_PHRASE,
  SEARCH_RARE,
  type SeededChannel,
  scaleLine,
  seedChannel,
  settle,
} from './scale.ts';
import { measureSignIn, signInAccounts } from './signin.ts';

const SEED_MESSAGES = 3000;
const THREAD_ROOTS = 200;
const REPLIES_PER_ROOT = 2;
const SEED_CONCURRENCY = 16;
const PAGE = 50;
/** The bench actor's conversations for `GET /conversations`, each with unread messages of a colleague. */
const SIDEBAR_CONVERSATIONS = 200;
const SIDEBAR_UNREAD = 2;
/** Closed-loop connections of each search run (issue 22). */
const SEARCH_CONNECTIONS = 8;
/** The p99 every search run should keep to (issue 22). */
const SEARCH_P99_GOAL_MS = 50;
/** Contract §13: a few milliseconds for any 40,000-character body. */
const PARSE_GOAL_MS = 5;
/** The scale run's small channel, against which the large one's cursor pages are compared. */
const SCALE_SMALL_MESSAGES = 10_000;
/** Concurrent sign-in loops, one account each (signin.ts says why). */
const SIGNIN_CONCURRENCY = 8;
const MAX_FAILED_FRACTION = 0.001;
// The measured routes leave thousands of events to trigger (each POST and PUT makes one), drained at the provider's pace.
const BACKLOG_TIMEOUT_MS = 300_000;
// Each PUT adds a new (message, emoji) pair, so none is an idempotent repeat; a message holds at most 50 emoji.
const EMOJI = ['👍', '😀', '🎉', '❤️', '🚀', '👀', '🔥', '✅', '😂', '🙏', '💯', '🤔', '👏', '🌟', '🍕', '☕'];
const load = loadFromEnv();
const warmup: Load = { ...load, seconds: Math.min(2, load.seconds) };
const eventLoad: EventLoad = { rate: positiveNumber('BENCH_EVENT_RATE', 50), seconds: load.seconds };
const eventWarmup: EventLoad = { ...eventLoad, seconds: warmup.seconds };
const openLoad: OpenLoad = { rate: positiveNumber('BENCH_OPEN_RATE', 500), seconds: load.seconds };
const openWarmup: OpenLoad = { ...openLoad, seconds: warmup.seconds };
const scaleMessages = Math.round(positiveNumber('BENCH_SCALE_MESSAGES', 1_000_000));
/** Processes of each row, as `pnpm start` takes them (`WMS_REPLICAS`, `WMS_REPLICAS_<ROW>`). */
const replicas = replicasFromEnv(process.env);

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Warms the path up with a short run of the same load, then measures, watching what each process uses. */
async function measured<M extends Measurement>(
  label: string,
  watch: ProcessWatch,
  measure: (load: Load) => Promise<M>,
  how = `${load.connections} connections`,
): Promise<M> {
  progress(`${label}: warm-up ${warmup.seconds} s, then ${load.seconds} s at ${how}`);
  await measure(warmup);
  return watch.during(
    label,
    () => measure(load),
    (m) => m.ok,
  );
}

/** The same for a run at a fixed rate. */
async function openMeasured(label: string, watch: ProcessWatch, request: OpenRequest): Promise<OpenLoopMeasurement> {
  progress(
    `${label}: warm-up ${openWarmup.seconds} s, then ${openLoad.seconds} s at ${openLoad.rate} req/s, open loop`,
  );
  await measureOpenLoop(label, openWarmup, request);
  return watch.during(
    label,
    () => measureOpenLoop(label, openLoad, request),
    (m) => m.ok,
  );
}

/**
 * Waits until the events of the runs before have been triggered: a run that starts while the relay and the
 * provider still work through thousands of them measures that work too.
 */
async function drained(pool: pg.Pool, label: string): Promise<void> {
  const waiting = await untriggeredEvents(pool);
  if (waiting === 0) return;
  progress(`${label}: waiting for the ${waiting} events of the runs before to be triggered`);
  await waitFor(
    'the event backlog to drain',
    async () => (await untriggeredEvents(pool)) === 0,
    BACKLOG_TIMEOUT_MS,
    500,
  );
}

interface Seeded {
  channelId: string;
  actorId: string;
  messageIds: string[];
}

async function seed(session: Session): Promise<Seeded> {
  const { id: actorId } = await callIn<{ id: string }>(session, 'GET', '/workspace/actors/me', 200);
  const { id: channelId } = await callIn<{ id: string }>(session, 'POST', '/channels', 201, { name: 'bench' });
  const post = async (body: Record<string, string>) =>
    (await callIn<{ id: string }>(session, 'POST', `/conversations/${channelId}/messages`, 201, body)).id;

  progress(`seeding ${SEED_MESSAGES} messages and ${THREAD_ROOTS} threads of ${REPLIES_PER_ROOT} replies`);
  const messageIds: string[] = [];
  await eachLimited(
    Array.from({ length: SEED_MESSAGES }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      messageIds.push(await post({ body_text: `seed message ${i}` }));
    },
  );
  await eachLimited(
    Array.from({ length: THREAD_ROOTS }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      const rootId = await post({ body_text: `thread ${i}` });
      for (let r = 0; r < REPLIES_PER_ROOT; r++)
        await post({ body_text: `reply ${r} in thread ${i}`, parent_message_id: rootId });
      messageIds.push(rootId);
    },
  );
  return { channelId, actorId, messageIds };
}

/**
 * A reader's sidebar: a member of 200 private channels of a colleague, each with messages it has not read. The reader
 * is an account of its own, so its sidebar holds these alone (the bench actor's channel, which the baselines fill with
 * tens of thousands of its own messages after a mark it never moves, would make every load count them).
 */
async function seedSidebar(gatewayUrl: string, inboxUrl: string, session: Session): Promise<Session> {
  progress(`seeding ${SIDEBAR_CONVERSATIONS} conversations with ${SIDEBAR_UNREAD} unread messages each`);
  const [colleague, reader] = [
    await registerAccount(gatewayUrl, inboxUrl),
    await registerAccount(gatewayUrl, inboxUrl),
  ];
  for (const account of [colleague, reader])
    await callIn(session, 'POST', '/workspace/users', 201, { email: account.email });
  const theirs: Session = { ...session, token: colleague.token };
  const readers: Session = { ...session, token: reader.token };
  const { id: readerActorId } = await callIn<{ id: string }>(readers, 'GET', '/workspace/actors/me', 200);
  await eachLimited(
    Array.from({ length: SIDEBAR_CONVERSATIONS }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      const { id } = await callIn<{ id: string }>(theirs, 'POST', '/channels', 201, {
        name: `sidebar-${i}`,
        kind: 'private',
        member_actor_ids: [readerActorId],
      });
      for (let m = 0; m < SIDEBAR_UNREAD; m++)
        await callIn(theirs, 'POST', `/conversations/${id}/messages`, 201, { body_text: `unread ${m}` });
    },
  );
  const sidebar = await callIn<{ items: Array<{ read_state: { unread_count: number } }> }>(
    readers,
    'GET',
    '/conversations?limit=50',
    200,
  );
  if (sidebar.items.length !== 50 || sidebar.items.some((s) => s.read_state.unread_count !== SIDEBAR_UNREAD))
    throw new Error('the sidebar does not hold 50 conversations with their unread messages');
  return readers;
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

/** Top-level messages with a full page older than each, in id (time) order; a random one per request. */
function pageCursors(messageIds: readonly string[]): () => string {
  const cursors = [...messageIds].sort().slice(PAGE);
  return () => cursors[Math.floor(Math.random() * cursors.length)]!;
}

async function checkPage(session: Session, path: string): Promise<void> {
  const page = await callIn<{ items: unknown[] }>(session, 'GET', path, 200);
  if (page.items.length !== PAGE) throw new Error(`GET ${path} holds ${page.items.length} items, expected ${PAGE}`);
}

/** One request of each measured route, so that a broken route fails here rather than as a table of 4xx. */
async function checkRoutes(session: Session, channelId: string, reactionPath: string, cursor: string): Promise<void> {
  await checkPage(session, `/conversations/${channelId}/messages?limit=50`);
  await checkPage(session, `/conversations/${channelId}/messages?limit=50&cursor=${cursor}`);
  const threads = await callIn<{ items: unknown[] }>(session, 'GET', '/threads?following=false&limit=50', 200);
  if (threads.items.length !== 50)
    throw new Error(`a page of threads holds ${threads.items.length} items, expected 50`);
  const reactions = await callIn<{ reactions: unknown[] }>(session, 'PUT', reactionPath, 200);
  if (reactions.reactions.length === 0) throw new Error('PUT reaction answered without the reaction');
}

/** The scale run's channels, seeded straight into the table with COPY by the bench's actor. */
async function seedScale(
  session: Session,
  pool: pg.Pool,
  actorId: string,
): Promise<{ small: SeededChannel; large: SeededChannel; vacuumSeconds: number }> {
  const seedOne = async (count: number) => {
    const { id: channelId } = await callIn<{ id: string }>(session, 'POST', '/channels', 201, {
      name: `bench-scale-${count}`,
    });
    progress(`scale run: seeding ${count.toLocaleString('en-US')} messages with COPY`);
    const channel = await seedChannel(pool, { workspaceId: session.workspaceId, channelId, actorId }, count);
    progress(`scale run: ${count.toLocaleString('en-US')} messages in ${channel.seconds.toFixed(1)} s`);
    await checkPage(session, cursorPages(channel)());
    return channel;
  };
  const small = await seedOne(SCALE_SMALL_MESSAGES);
  const large = await seedOne(scaleMessages);
  progress('scale run: VACUUM (ANALYZE) messaging.messages');
  return { small, large, vacuumSeconds: await settle(pool) };
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
  const reader = await seedSidebar(cluster.gatewayUrl, cluster.inboxUrl, session);
  const reactions = reactionPaths(channelId, messageIds);
  const cursor = pageCursors(messageIds);
  await checkRoutes(session, channelId, reactions.next(), cursor());
  const accounts = await signInAccounts(cluster.gatewayUrl, cluster.inboxUrl, SIGNIN_CONCURRENCY);

  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: load.connections });
  try {
    const watch = await watchProcesses(cluster, pool, replicas);
    const headers = sessionHeaders(session);
    const agent = await callIn<{ id: string }>(session, 'POST', '/workspace/actors', 201, {
      display_name: 'Bench bot',
    });
    const { token: agentToken } = await callIn<{ token: string }>(session, 'POST', '/workspace/tokens', 201, {
      actor_id: agent.id,
      name: 'bench',
    });
    const messagesUrl = `${cluster.gatewayUrl}/conversations/${channelId}/messages`;

    // First, while no run has left events behind: reads only, and the table holds the large channel from here on.
    // The large channel goes first, so whatever the seed leaves the server doing (writing out pages) counts against it.
    const scale = await seedScale(session, pool, actorId);
    await drained(pool, 'scale run');
    const scaleRun = (channel: SeededChannel) => {
      const name = `GET cursor page, ${channel.messages.toLocaleString('en-US')} msgs`;
      const path = cursorPages(channel);
      return measured(name, watch, (l) =>
        measureHttp(name, l, {
          url: cluster.gatewayUrl,
          headers,
          requests: [{ setupRequest: (r) => ({ ...r, path: path() }) }],
        }),
      );
    };
    const scaleLarge = await scaleRun(scale.large);
    const scaleSmall = await scaleRun(scale.small);

    // Search over the scale run's texts (and everything else of the workspace), read-only like the scale run.
    const searchLoad: Load = { ...load, connections: SEARCH_CONNECTIONS };
    const searchRun = (name: string, query: string, who: Session = session) =>
      watch.during(
        name,
        async () => {
          const request = { url: `${cluster.gatewayUrl}/search/messages?${query}`, headers: sessionHeaders(who) };
          await measureHttp(name, { ...warmup, connections: SEARCH_CONNECTIONS }, request);
          return measureHttp(name, searchLoad, request);
        },
        (m) => m.ok,
      );
    const q = (text: string) => `q=${encodeURIComponent(text)}&limit=20`;
    progress(`search runs: ${SEARCH_CONNECTIONS} connections each`);
    const searches = [
      await searchRun(`search "${SEARCH_COMMON.join(' ')}"`, q(SEARCH_COMMON.join(' '))),
      await searchRun(`search rare word`, q(SEARCH_RARE)),
      await searchRun(`search phrase`, q(`"${SEARCH_PHRASE}"`)),
      await searchRun(`search in a conversation`, `${q(SEARCH_COMMON[0])}&conversation_id=${scale.small.channelId}`),
      await searchRun(`search, private member`, q(SEARCH_COMMON.join(' ')), reader),
    ];

    // The ids the INSERT baseline made: the reaction baseline's messages, none of which a measured route reacts to.
    const inserted: string[] = [];
    const insert = await measured('pg INSERT message', watch, (l) =>
      measurePg('pg INSERT message', l, pool, () => {
        const id = uuidv7();
        inserted.push(id);
        return [
          'INSERT INTO messaging.messages (id, workspace_id, conversation_id, author_actor_id, body_text) VALUES ($1, $2, $3, $4, $5) RETURNING *',
          [id, session.workspaceId, channelId, actorId, BODY_TEXT],
        ];
      }),
    );
    let reacted = 0;
    const reactionInsert = await measured('pg INSERT reaction', watch, (l) =>
      measurePg('pg INSERT reaction', l, pool, () => {
        const i = reacted++;
        return [
          'INSERT INTO messaging.reactions (workspace_id, message_id, emoji, actor_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
          [
            session.workspaceId,
            inserted[i % inserted.length],
            EMOJI[Math.floor(i / inserted.length) % EMOJI.length],
            actorId,
          ],
        ];
      }),
    );
    const pageRead = await measured('pg SELECT page', watch, (l) =>
      measurePg('pg SELECT page', l, pool, () => [
        'SELECT * FROM messaging.messages WHERE conversation_id = $1 AND parent_message_id IS NULL ORDER BY id DESC LIMIT 51',
        [channelId],
      ]),
    );
    const nextPageRead = await measured('pg SELECT next page', watch, (l) =>
      measurePg('pg SELECT next page', l, pool, () => [
        'SELECT * FROM messaging.messages WHERE conversation_id = $1 AND parent_message_id IS NULL AND id < $2 ORDER BY id DESC LIMIT 51',
        [channelId, cursor()],
      ]),
    );
    // The baselines' tens of thousands of rows would otherwise leave autovacuum work (and the search index's pending
    // list) to the first write route's run.
    await pool.query('VACUUM (ANALYZE) messaging.messages, messaging.reactions');
    const routes: Array<{ name: string; baseline: Measurement; request: HttpRequest }> = [
      {
        name: 'POST message',
        baseline: insert,
        request: { url: messagesUrl, method: 'POST', body: JSON.stringify({ body_text: BODY_TEXT }) },
      },
      // An agent's post (contract §11): the token checked in Redis instead of the JWT and the membership.
      {
        name: 'POST message, token',
        baseline: insert,
        request: {
          url: messagesUrl,
          method: 'POST',
          headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ body_text: BODY_TEXT }),
        },
      },
      { name: 'GET page of 50', baseline: pageRead, request: { url: `${messagesUrl}?limit=50` } },
      {
        name: 'GET next page',
        baseline: nextPageRead,
        request: {
          url: cluster.gatewayUrl,
          requests: [
            {
              setupRequest: (r) => ({ ...r, path: `/conversations/${channelId}/messages?limit=50&cursor=${cursor()}` }),
            },
          ],
        },
      },
      {
        name: 'PUT reaction',
        baseline: reactionInsert,
        request: {
          url: cluster.gatewayUrl,
          method: 'PUT',
          requests: [{ setupRequest: (r) => ({ ...r, path: reactions.next() }) }],
        },
      },
      {
        name: 'GET /threads',
        baseline: pageRead,
        request: { url: `${cluster.gatewayUrl}/threads?following=false&limit=50` },
      },
      {
        name: 'GET /conversations',
        baseline: pageRead,
        request: { url: `${cluster.gatewayUrl}/conversations?limit=50`, headers: sessionHeaders(reader) },
      },
    ];
    const rows: Row[] = [insert, reactionInsert, pageRead, nextPageRead].map((measurement) => ({ measurement }));
    const measuredRoutes = new Map<string, Measurement>();
    for (const { name, baseline, request } of routes) {
      // Each run pays for the search index entries of its own writes only: the GIN index keeps new entries in a
      // pending list that some insert merges once it is full, and a write route leaves hundreds there.
      await pool.query("SELECT gin_clean_pending_list('messaging.messages_search_idx')");
      const measurement = await measured(name, watch, (l) => measureHttp(name, l, { headers, ...request }));
      measuredRoutes.set(name, measurement);
      rows.push({ measurement, baseline });
    }
    rows.push(
      { measurement: scaleSmall },
      { measurement: scaleLarge },
      ...searches.map((measurement) => ({ measurement })),
    );

    await drained(pool, 'sign-in');
    const signIn = await measured(
      'POST /auth/login',
      watch,
      (l) => measureSignIn('POST /auth/login', l, cluster.gatewayUrl, accounts),
      `${accounts.length} loops`,
    );
    rows.push({ measurement: signIn });

    await drained(pool, 'open loop');
    const openPost = await openMeasured('POST message', watch, {
      url: messagesUrl,
      method: 'POST',
      headers,
      body: JSON.stringify({ body_text: BODY_TEXT }),
    });
    await drained(pool, 'open loop');
    const openPage = await openMeasured('GET page of 50', watch, { url: `${messagesUrl}?limit=50`, headers });

    // Measured events would otherwise queue behind those of the runs above, which the provider triggers in order.
    await drained(pool, 'event path');
    progress(`event path: warm-up ${eventWarmup.seconds} s, then ${eventLoad.seconds} s at ${eventLoad.rate} posts/s`);
    await measureEventPath(session, channelId, eventWarmup, BODY_TEXT);
    const events = await watch.during(
      'event path',
      () => measureEventPath(session, channelId, eventLoad, BODY_TEXT),
      (m) => m.posts - m.failed,
    );

    // In this process, once the cluster is idle again.
    await drained(pool, 'parsing');
    const parsing = measureParsing();

    const route = (name: string) => measuredRoutes.get(name)!;
    const goals = [
      ratioGoal('POST message', route('POST message'), insert, 0.3),
      ratioGoal('GET newest 50', route('GET page of 50'), pageRead, 0.4),
      ratioGoal('GET next page', route('GET next page'), nextPageRead, 0.4),
      ratioGoal('PUT reaction', route('PUT reaction'), reactionInsert, 0.15),
      openLoopGoal(openPost, 20),
      openLoopGoal(openPage, 20),
      scaleGoal(
        `cursor page p99, ${scale.large.messages.toLocaleString('en-US')} / ${scale.small.messages.toLocaleString('en-US')} msgs`,
        scaleSmall,
        scaleLarge,
        1.5,
      ),
      signInGoal(signIn, 30),
      ...searches.map((m) => p99Goal(m, SEARCH_P99_GOAL_MS)),
      parseGoal(parsing, PARSE_GOAL_MS),
      errorsGoal([
        ...rows.map((r) => r.measurement),
        openPost,
        openPage,
        { ok: events.posts - events.failed, failed: events.failed },
      ]),
    ];

    const {
      rows: [postgres],
    } = await pool.query<{ server_version: string }>('SHOW server_version');
    console.log(
      [
        ...machineLines(load, warmup, postgres?.server_version ?? '?', replicas),
        scaleLine(scale.small, scale.large, scale.vacuumSeconds),
        `sign-in: ${SIGNIN_CONCURRENCY} loops, each signing in one account of its own (from a client address of its own) with the right password`,
        '',
        table(rows),
        '',
        ...openLoopLines([openPost, openPage], openWarmup),
        '',
        ...eventLines(events, eventWarmup),
        '',
        ...parseLines(parsing),
        '',
        ...watch.lines(),
        '',
        ...goalLines(goals),
      ].join('\n'),
    );
    if (reactions.used() > reactions.total)
      console.log(
        `note: ${reactions.used()} PUTs over ${reactions.total} (message, emoji) pairs; the later ones repeated a pair`,
      );

    const measurements = rows.map((r) => r.measurement);
    for (const m of [...measurements, openPost, openPage].filter((m) => m.failed > 0))
      console.log(`${m.name}: ${m.failed} of ${m.ok + m.failed} failed: ${m.failures}`);
    // Open-loop failures past the rate the cluster keeps up with (timeouts, 503s) are a result, which the goals show.
    const bad = [
      ...measurements.filter((m) => m.failed > MAX_FAILED_FRACTION * (m.ok + m.failed)),
      ...[...measurements, openPost, openPage].filter((m) => m.ok === 0),
    ];
    for (const m of new Set(bad))
      console.error(`${m.name}: too many failures; a benchmark of failed requests measures nothing`);
    const eventFaults = eventPathFaults(events);
    for (const fault of eventFaults) console.error(`event path: ${fault}`);
    return bad.length === 0 && eventFaults.length === 0 ? 0 : 1;
  } finally {
    await pool.end();
  }
}

const aborted = new AbortController();
let postgres: TestDependency | undefined;
let cluster: Cluster | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping the cluster`);
    aborted.abort();
    // Exiting stops the bench's Postgres too (testkit's exit hook).
    if (cluster) void cluster.stop().finally(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  // A Postgres of the bench's own, durable as a deployment's: the bench's connections (a cluster's pools and 32 more
  // of its own) would otherwise crowd out whatever else uses the machine's server, such as a test run beside it, and
  // its `pg` column counts the bench's work only.
  progress("starting the bench's own Postgres and the cluster (test mode; logs under .wms/logs)");
  postgres = await startTestPostgres({ durable: true });
  // The agent's run makes thousands of requests a minute with one token: far above the default limit.
  cluster = await startCluster({
    mode: 'test',
    logs: 'files',
    signal: aborted.signal,
    postgresUrl: postgres.url,
    replicas,
    env: { TOKEN_RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  exitCode = await bench(cluster);
} catch (err) {
  console.error(`benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
  if (cluster?.logDir) console.error(`service logs: ${cluster.logDir}`);
} finally {
  await cluster?.stop();
  await postgres?.destroy();
}
process.exit(exitCode);
