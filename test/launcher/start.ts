import path from 'node:path';
import { type Cluster, startCluster } from './cluster.ts';

const gatewayPort = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(gatewayPort) || gatewayPort <= 0 || gatewayPort > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

const aborted = new AbortController();
let cluster: Cluster | undefined;
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

const cwdRelative = (dir: string | undefined) => (dir ? path.relative(process.cwd(), dir) || '.' : '(not written)');
console.log(
  [
    '',
    'wms is running',
    `  gateway     ${cluster.publicUrl}`,
    `  mail inbox  ${cluster.inboxUrl}   (SMTP ${cluster.smtpUrl})`,
    `  mail files  ${cwdRelative(cluster.mailDir)}/*.eml`,
    `  database    ${cluster.databaseName}, Redis prefix "${cluster.redisPrefix}"`,
    'Ctrl-C stops it.',
    '',
  ].join('\n'),
);
