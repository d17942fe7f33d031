import { bannerLines } from './banner.ts';
import { type ClusterOptions, type DevCluster, replicasFromEnv, startCluster } from './cluster.ts';

const gatewayPort = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(gatewayPort) || gatewayPort <= 0 || gatewayPort > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

let replicas: ClusterOptions['replicas'];
try {
  replicas = replicasFromEnv(process.env);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

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
  cluster = await startCluster({
    mode: 'dev',
    logs: process.argv.includes('--json') ? 'json' : 'pretty',
    gatewayPort,
    signal: aborted.signal,
    replicas,
  });
} catch (err) {
  if (stoppingSince !== undefined) process.exit(0);
  console.error(`\ncluster failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

console.log(bannerLines(cluster).join('\n'));
