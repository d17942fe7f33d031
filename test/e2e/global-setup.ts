import type { TestProject } from 'vitest/node';
import { startCluster } from '@wms/local-cluster/cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
    inboxUrl: string;
    databaseUrl: string;
    jwtPrivateKey: string;
    redisUrl: string;
    redisPrefix: string;
    storageDir: string;
    /** Prometheus endpoint of each server and worker, by component name. */
    metricsUrls: Record<string, string>;
  }
}

/**
 * A cluster that runs elsewhere (Tilt's, in Kubernetes), named by E2E_* variables: the gateway, the mail catcher's
 * API (`wms`: the local cluster's; `mailpit`), and Postgres as the test reaches it. Only the test files that need
 * nothing else run against it (tilt/Tiltfile lists them).
 */
function externalCluster(project: TestProject): boolean {
  const gatewayUrl = process.env.E2E_GATEWAY_URL;
  if (!gatewayUrl) return false;
  const required = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`E2E_GATEWAY_URL is set: set ${name} too`);
    return value;
  };
  project.provide('gatewayUrl', gatewayUrl);
  project.provide('inboxUrl', required('E2E_INBOX_URL'));
  project.provide('databaseUrl', required('E2E_DATABASE_URL'));
  for (const name of ['jwtPrivateKey', 'redisUrl', 'redisPrefix', 'storageDir'] as const) project.provide(name, '');
  project.provide('metricsUrls', {});
  return true;
}

/**
 * One test-mode cluster for the whole e2e run: fresh database and Redis prefix, removed again at the end. `replicas`
 * runs that many processes of every server, worker and gateway (the `e2e-replicas` project's core scenarios);
 * `redisClusterNodes` puts its Redis on a Redis Cluster (the `redis-cluster-e2e` project's).
 */
export async function provideCluster(
  project: TestProject,
  { replicas = 1, redisClusterNodes }: { replicas?: number; redisClusterNodes?: string[] } = {},
): Promise<() => Promise<void>> {
  if (externalCluster(project)) return async () => {};
  // A short upload stall timeout, so the tests of stalled uploads wait seconds, not the default half minute.
  const cluster = await startCluster({
    mode: 'test',
    logs: 'files',
    replicas,
    redisClusterNodes,
    env: { UPLOAD_IDLE_TIMEOUT_MS: '5000' },
  });
  project.provide('gatewayUrl', cluster.gatewayUrl);
  project.provide('inboxUrl', cluster.inboxUrl);
  project.provide('databaseUrl', cluster.databaseUrl);
  project.provide('jwtPrivateKey', cluster.jwt.privateKey);
  project.provide('redisUrl', cluster.redisUrl);
  project.provide('redisPrefix', cluster.redisPrefix);
  project.provide('storageDir', cluster.storageDir);
  project.provide('metricsUrls', { ...cluster.metricsUrls });
  return () => cluster.stop();
}

export default (project: TestProject) => provideCluster(project);
