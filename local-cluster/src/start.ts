import { bannerLines } from './banner.ts';
import { type DevCluster, startCluster } from './cluster.ts';
import { components } from './components.ts';

const gatewayPort = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(gatewayPort) || gatewayPort <= 0 || gatewayPort > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

/**
 * How many processes of each gRPC server and worker role: `WMS_REPLICAS` for all, `WMS_REPLICAS_<ROW>` (e.g.
 * `WMS_REPLICAS_MESSAGING_WORKER`) for one row; 1 to 8.
 */
function replicasFromEnv(env: NodeJS.ProcessEnv): Record<string, number> | number | undefined {
  const parse = (name: string) => {
    const value = Number(env[name]);
    if (!Number.isInteger(value) || value < 1 || value > 8) {
      console.error(`${name} must be a whole number from 1 to 8, got "${env[name]}"`);
      process.exit(1);
    }
    return value;
  };
  const all = env.WMS_REPLICAS ? parse('WMS_REPLICAS') : 1;
  const rows = Object.keys(env)
    .filter((name) => name.startsWith('WMS_REPLICAS_') && env[name])
    .map((name) => [name.slice('WMS_REPLICAS_'.length).toLowerCase().replaceAll('_', '-'), parse(name)] as const);
  // Rows that can run more than once: the gRPC servers, the workers and the gateway (not the realtime provider).
  const byRow = Object.fromEntries(components.filter((c) => c.kind === 'grpc' || c.kind === 'worker' || c.public).map((c) => [c.name, all]));
  for (const [row, count] of rows) {
    if (!(row in byRow)) {
      console.error(`WMS_REPLICAS_${row.toUpperCase().replaceAll('-', '_')}: no row ${row} runs replicas (rows: ${Object.keys(byRow).join(', ')})`);
      process.exit(1);
    }
    byRow[row] = count;
  }
  return byRow;
}
const replicas = replicasFromEnv(process.env);

/** A repeat within this window is the same Ctrl-C arriving twice, not a second one asking to hurry. */
const REPEAT_WINDOW_MS = 1000;

const aborted = new AbortController();
let cluster: DevCluster | undefined;
let stoppingSince: number | undefined;

// Signals are handled from the first moment: the children run in their own process groups, so a launcher that
// died on a Ctrl-C would leave them running. A Ctrl-C reaches the launcher twice when a runner forwards it too
// (pnpm and npm send SIGINT to their child besides the terminal's to the whole group), so only a repeat after a
// moment kills the cluster. A clean stop exits 0: the operator asked for it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < REPEAT_WINDOW_MS) return;
      console.log(`\n${signal} again: killing the cluster`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    console.log(`\n${signal}: stopping the cluster`);
    aborted.abort();
    if (cluster) void cluster.stop().then(() => process.exit(0));
  });
}

try {
  cluster = await startCluster({ mode: 'dev', logs: process.argv.includes('--json') ? 'json' : 'pretty', gatewayPort, signal: aborted.signal, replicas });
} catch (err) {
  if (stoppingSince !== undefined) process.exit(0);
  console.error(`\ncluster failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

console.log(bannerLines(cluster).join('\n'));
