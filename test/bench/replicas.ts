import { uuidv7 } from '@wms/kit/ids';
import { type ClusterOptions, replicasFromEnv, startCluster } from '@wms/local-cluster/cluster';
import { startTestPostgres } from '@wms/testkit';
import pg from 'pg';
import { callIn, createWorkspace, eachLimited, sessionHeaders, signUp } from './api.ts';
import { BODY_TEXT, type Load, loadFromEnv, type Measurement, measureHttp, measurePg, positiveNumber } from './measure.ts';
import { render } from './report.ts';

// `pnpm bench:replicas`: what running replicas costs on this machine, measured so that the machine's drift (its speed
// moves by a third between runs minutes apart here) cancels out. Clusters of one process per row and of the replicas
// `WMS_REPLICAS` / `WMS_REPLICAS_<ROW>` give (default: 2 of every row) take turns, BENCH_ROUNDS times, on one Postgres
// of the bench's own; each measures POST message and GET page of 50 and, for the machine's speed at that moment, the
// bare insert. The ratios are each round's replicated figure over the one-replica figure next to it.

const SEED = 300;

const rounds = Math.max(1, Math.round(positiveNumber('BENCH_ROUNDS', 3)));
const load = loadFromEnv();
/** Long enough for every process of either cluster to have compiled its hot paths. */
const warmup: Load = { ...load, seconds: positiveNumber('BENCH_WARMUP_SECONDS', 10) };
const env = replicasFromEnv(process.env);
const replicated: ClusterOptions['replicas'] = Object.values(env).some((n) => n > 1) ? env : 2;
const progress = (line: string) => process.stderr.write(`${line}\n`);

interface Segment {
  post: Measurement;
  page: Measurement;
  insert: Measurement;
}

/** One cluster: started, seeded, warmed up, measured and stopped. */
async function segment(postgresUrl: string, replicas: ClusterOptions['replicas']): Promise<Segment> {
  const cluster = await startCluster({ mode: 'test', logs: 'files', postgresUrl, replicas });
  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: load.connections });
  try {
    const session = await createWorkspace(cluster.gatewayUrl, await signUp(cluster.gatewayUrl, cluster.inboxUrl));
    const { id: actorId } = await callIn<{ id: string }>(session, 'GET', '/workspace/actors/me', 200);
    const { id: channelId } = await callIn<{ id: string }>(session, 'POST', '/channels', 201, { name: 'bench' });
    const messages = `${cluster.gatewayUrl}/conversations/${channelId}/messages`;
    await eachLimited(Array.from({ length: SEED }, (_, i) => i), 16, async (i) => void (await callIn(session, 'POST', `/conversations/${channelId}/messages`, 201, { body_text: `seed ${i}` })));
    const headers = sessionHeaders(session);
    const post = { url: messages, method: 'POST' as const, headers, body: JSON.stringify({ body_text: BODY_TEXT }) };
    const page = { url: `${messages}?limit=50`, headers };
    await measureHttp('warm-up', warmup, post);
    await measureHttp('warm-up', warmup, page);
    return {
      post: await measureHttp('POST message', load, post),
      page: await measureHttp('GET page of 50', load, page),
      insert: await measurePg('pg INSERT message', load, pool, () => [
        'INSERT INTO messaging.messages (id, workspace_id, conversation_id, author_actor_id, body_text) VALUES ($1, $2, $3, $4, $5)',
        [uuidv7(), session.workspaceId, channelId, actorId, BODY_TEXT],
      ]),
    };
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const postgres = await startTestPostgres({ durable: true });
let exitCode = 1;
try {
  const label = typeof replicated === 'number' ? `${replicated} of every row` : Object.entries(replicated).map(([row, n]) => `${n} ${row}`).join(', ');
  const rows: string[][] = [];
  const ratios = { post: [] as number[], page: [] as number[], insert: [] as number[] };
  for (let round = 1; round <= rounds; round++) {
    progress(`round ${round} of ${rounds}: one replica, then ${label}; ${warmup.seconds} s warm-up and ${load.seconds} s per route at ${load.connections} connections`);
    const one = await segment(postgres.url, undefined);
    const many = await segment(postgres.url, replicated);
    const failed = [one, many].flatMap((s) => [s.post, s.page, s.insert]).filter((m) => m.failed > 0);
    if (failed.length > 0) throw new Error(failed.map((m) => `${m.name}: ${m.failed} failed (${m.failures})`).join('; '));
    for (const key of ['post', 'page', 'insert'] as const) ratios[key].push(many[key].rps / one[key].rps);
    const rps = (m: Measurement) => m.rps.toFixed(0);
    rows.push([String(round), `${rps(one.post)} / ${rps(many.post)}`, `${rps(one.page)} / ${rps(many.page)}`, `${rps(one.insert)} / ${rps(many.insert)}`]);
  }
  const ratio = (values: number[]) => `${median(values).toFixed(2)} (${values.map((v) => v.toFixed(2)).join(', ')})`;
  rows.push(['median ratio (each round)', ratio(ratios.post), ratio(ratios.page), ratio(ratios.insert)]);
  console.log(
    [
      `replicas: one replica against ${label}, taking turns on the bench's own Postgres; req/s, one / replicated`,
      '',
      render(['round', 'POST message', 'GET page of 50', 'pg INSERT message'], rows, ['round']),
    ].join('\n'),
  );
  exitCode = 0;
} catch (err) {
  console.error(`benchmark failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await postgres.destroy();
}
process.exit(exitCode);
