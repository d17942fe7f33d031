import { bannerLines } from './banner.ts';
import { type DevCluster, startCluster } from './cluster.ts';

const gatewayPort = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(gatewayPort) || gatewayPort <= 0 || gatewayPort > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

const aborted = new AbortController();
let cluster: DevCluster | undefined;
let stopping = false;

// Signals are handled from the first moment: the children run in their own process groups, so a launcher that
// died on a Ctrl-C would leave them running.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) {
      console.log(`\n${signal} again: killing the cluster`);
      process.exit(1);
    }
    stopping = true;
    console.log(`\n${signal}: stopping the cluster`);
    aborted.abort();
    if (cluster) void cluster.stop().then(() => process.exit(0));
  });
}

try {
  cluster = await startCluster({ mode: 'dev', logs: 'inherit', gatewayPort, signal: aborted.signal });
} catch (err) {
  if (stopping) process.exit(0);
  console.error(`\ncluster failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

console.log(bannerLines(cluster).join('\n'));
