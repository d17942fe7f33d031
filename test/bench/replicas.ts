import { uuidv7 } from '@wms/kit/ids';
import {
  type Cluster,
  type ClusterOptions,
  replicasFromEnv,
  startCluster,
  withReplicas,
} from '@wms/local-cluster/cluster';
import { components } from '@wms/local-cluster/components';
import { startTestPostgres } from '@wms/testkit';
import pg from 'pg';
import { callIn, createWorkspace, eachLimited, sessionHeaders, signUp } from './api.ts';
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
import { machineBusyMs, type ProcessWatch, watchProcesses } from './processes.ts';
import { render } from './report.ts';

// `pnpm bench:replicas`: what running replicas costs on this machine, measured so that the machine's drift (its speed
// moves by a third within a minute here) cancels out. A cluster of one process per row and one of the replicas
// `WMS_REPLICAS` / `WMS_REPLICAS_<ROW>` give (default: 2 of every row) run side by side on one Postgres of the
// bench's own, and take turns run by run: while one is measured, every process of the other is stopped (SIGSTOP), so
// it uses no CPU. Each round measures POST message, GET page of 50 and, for the machine's speed, the bare insert, on
// each cluster in turn (the order swapped every round); the ratios are each round's replicated figure over the
// one-replica figure next to it.

const SEED = 300;

const rounds = Math.max(1, Math.round(positiveNumber('BENCH_ROUNDS', 5)));
const load = loadFromEnv();
/** Long enough for every process of either cluster to have compiled its hot paths. */
const warmup: Load = { ...load, seconds: positiveNumber('BENCH_WARMUP_SECONDS', 10) };
/** After a cluster is let go on, its timers catch up (a keepalive, a poll): a short run first, not measured. */
const settle: Load = { ...load, seconds: 2 };
const env = replicasFromEnv(process.env);
const replicated: ClusterOptions['replicas'] = Object.values(env).some((n) => n > 1) ? env : 2;
const progress = (line: string) => process.stderr.write(`${line}\n`);

const ROUTES = ['post', 'page', 'insert'] as const;
type Route = (typeof ROUTES)[number];

/** A measured run and the machine's busy CPU time per successful request during it. */
interface Figures {
  measurement: Measurement;
  cpuMsPerRequest: number;
}

/** A started and seeded cluster, each route's run ready to go, and a switch that stops or continues all its processes. */
interface Contender {
  run: Record<Route, (load: Load) => Promise<Figures>>;
  /** Runs of the HTTP routes that are not measured. */
  warmUp(load: Load): Promise<void>;
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
  /** What each of its processes (and Postgres) used per request in each measured run. */
  watch: ProcessWatch;
}

async function contender(postgresUrl: string, replicas: ClusterOptions['replicas']): Promise<Contender> {
  const cluster: Cluster = await startCluster({ mode: 'test', logs: 'files', postgresUrl, replicas });
  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: load.connections });
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    for (const { name: component } of withReplicas(components, replicas)) {
      // One that is not running (it died: then requests fail, which fails the run) has nothing to stop.
      const pid = cluster.pidOf(component);
      if (pid !== undefined) process.kill(pid, name);
    }
  };
  const stop = async () => {
    signal('SIGCONT');
    await pool.end();
    await cluster.stop();
  };
  try {
    const session = await createWorkspace(cluster.gatewayUrl, await signUp(cluster.gatewayUrl, cluster.inboxUrl));
    const { id: actorId } = await callIn<{ id: string }>(session, 'GET', '/workspace/actors/me', 200);
    const { id: channelId } = await callIn<{ id: string }>(session, 'POST', '/channels', 201, { name: 'bench' });
    const messages = `${cluster.gatewayUrl}/conversations/${channelId}/messages`;
    await eachLimited(
      Array.from({ length: SEED }, (_, i) => i),
      16,
      async (i) =>
        void (await callIn(session, 'POST', `/conversations/${channelId}/messages`, 201, { body_text: `seed ${i}` })),
    );
    const headers = sessionHeaders(session);
    const post: HttpRequest = {
      url: messages,
      method: 'POST',
      headers,
      body: JSON.stringify({ body_text: BODY_TEXT }),
    };
    const page: HttpRequest = { url: `${messages}?limit=50`, headers };
    const watch = await watchProcesses(cluster, pool, replicas);
    const runs = new Map<string, number>();
    const measured = async (name: string, run: () => Promise<Measurement>): Promise<Figures> => {
      runs.set(name, (runs.get(name) ?? 0) + 1);
      // As in `pnpm bench`: each run pays for the search index entries of its own writes only.
      await pool.query("SELECT gin_clean_pending_list('messaging.messages_search_idx')");
      const busyMs = machineBusyMs();
      const measurement = await watch.during(`${name}, round ${runs.get(name)}`, run, (m) => m.ok);
      return { measurement, cpuMsPerRequest: (machineBusyMs() - busyMs) / measurement.ok };
    };
    const http = (name: string, request: HttpRequest) => async (runLoad: Load) => {
      await measureHttp('settle', settle, request);
      return measured(name, () => measureHttp(name, runLoad, request));
    };
    return {
      run: {
        post: http('POST message', post),
        page: http('GET page of 50', page),
        insert: async (runLoad) => {
          const figures = await measured('pg INSERT message', () =>
            measurePg('pg INSERT message', runLoad, pool, () => [
              'INSERT INTO messaging.messages (id, workspace_id, conversation_id, author_actor_id, body_text) VALUES ($1, $2, $3, $4, $5)',
              [uuidv7(), session.workspaceId, channelId, actorId, BODY_TEXT],
            ]),
          );
          // Its tens of thousands of rows are vacuumed now, not by autovacuum during a later run of either cluster.
          await pool.query('VACUUM (ANALYZE) messaging.messages');
          return figures;
        },
      },
      warmUp: async (warmLoad) => {
        for (const request of [post, page]) await measureHttp('warm-up', warmLoad, request);
      },
      watch,
      pause: () => signal('SIGSTOP'),
      resume: () => signal('SIGCONT'),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const postgres = await startTestPostgres({ durable: true });
const started: Contender[] = [];
let exitCode = 1;
try {
  const label =
    typeof replicated === 'number'
      ? `${replicated} of every row`
      : Object.entries(replicated)
          .map(([row, n]) => `${n} ${row}`)
          .join(', ');
  progress(`starting one replica and ${label}, side by side`);
  const one = await contender(postgres.url, undefined);
  started.push(one);
  one.pause();
  const many = await contender(postgres.url, replicated);
  started.push(many);
  many.pause();
  /** Runs `work` on `who` alone: the other stays stopped. */
  const alone = async <T>(who: Contender, work: (who: Contender) => Promise<T>) => {
    who.resume();
    try {
      return await work(who);
    } finally {
      who.pause();
    }
  };
  progress(`warming up: ${warmup.seconds} s of each route on each`);
  for (const who of [one, many]) await alone(who, (w) => w.warmUp(warmup));
  const rows: string[][] = [];
  const ratios: Record<Route, number[]> = { post: [], page: [], insert: [] };
  const cpuRatios: Record<Route, number[]> = { post: [], page: [], insert: [] };
  for (let round = 1; round <= rounds; round++) {
    progress(`round ${round} of ${rounds}: ${load.seconds} s per route on each at ${load.connections} connections`);
    const row = [String(round)];
    for (const route of ROUTES) {
      // Which goes first alternates, so that a machine speeding up or slowing down favours neither.
      const order = round % 2 === 1 ? [one, many] : [many, one];
      const measure = (w: Contender) => w.run[route](load);
      const [first, second] = [await alone(order[0]!, measure), await alone(order[1]!, measure)];
      const [mine, theirs] = order[0] === one ? [first, second] : [second, first];
      const failed = [mine, theirs].map((f) => f.measurement).filter((m) => m.failed > 0);
      if (failed.length > 0)
        throw new Error(failed.map((m) => `${m.name}: ${m.failed} failed (${m.failures})`).join('; '));
      ratios[route].push(theirs.measurement.rps / mine.measurement.rps);
      cpuRatios[route].push(theirs.cpuMsPerRequest / mine.cpuMsPerRequest);
      const cpu = (f: Figures) => f.cpuMsPerRequest.toFixed(route === 'insert' ? 2 : 1);
      row.push(
        `${mine.measurement.rps.toFixed(0)} / ${theirs.measurement.rps.toFixed(0)} (${cpu(mine)} / ${cpu(theirs)} ms)`,
      );
    }
    rows.push(row);
  }
  const ratio = (values: number[]) => `${median(values).toFixed(2)} (${values.map((v) => v.toFixed(2)).join(', ')})`;
  rows.push(['req/s, replicated / one: median', ...ROUTES.map((route) => ratio(ratios[route]))]);
  rows.push(['CPU per request, replicated / one: median', ...ROUTES.map((route) => ratio(cpuRatios[route]))]);
  console.log(
    [
      `replicas: one replica against ${label}, taking turns run by run on the bench's own Postgres (the other cluster stopped)`,
      "each round: req/s, one / replicated (the machine's busy CPU time per successful request, every process on it included)",
      '',
      render(['round', 'POST message', 'GET page of 50', 'pg INSERT message'], rows, ['round']),
      '',
      'one replica:',
      ...one.watch.lines(),
      '',
      `${label}:`,
      ...many.watch.lines(),
    ].join('\n'),
  );
  exitCode = 0;
} catch (err) {
  console.error(`benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  for (const who of started)
    await who
      .stop()
      .catch((err: unknown) =>
        console.error(`stopping a cluster: ${err instanceof Error ? err.message : String(err)}`),
      );
  await postgres.destroy();
}
process.exit(exitCode);
