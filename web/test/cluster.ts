import { startCluster } from '@wms/local-cluster/cluster';

// A test-mode cluster for the browser tests, run as a process of its own by the global setup: it prints where the
// gateway and the mail inbox are as one JSON line, and stops the cluster on SIGTERM.
const cluster = await startCluster({ mode: 'test', logs: 'files' });
// The app is opened at the public URL: its realtime connection goes there (the page's CSP allows only its own origin).
const publicUrl = cluster.settings.find((s) => s.name === 'public URL')?.value ?? cluster.gatewayUrl;
process.stdout.write(`${JSON.stringify({ gatewayUrl: cluster.gatewayUrl, publicUrl, inboxUrl: cluster.inboxUrl })}\n`);
const stop = () => void cluster.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
