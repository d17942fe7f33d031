import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
    /**
     * Where the cluster's processes record each distinct statement they send (`WMS_STATEMENT_LOG`, kit
     * statement-log.ts), read by statements.test.ts; empty when nothing records (another project's cluster, or one
     * that runs elsewhere).
     */
    statementLogDir: string;
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
  for (const name of ['jwtPrivateKey', 'redisUrl', 'redisPrefix', 'storageDir', 'statementLogDir'] as const)
    project.provide(name, '');
  project.provide('metricsUrls', {});
  return true;
}

/**
 * One test-mode cluster for the whole e2e run: fresh database and Redis prefix, removed again at the end. `replicas`
 * runs that many processes of every server, worker and gateway (the `e2e-replicas` project's core scenarios);
 * `redisClusterNodes` puts its Redis on a Redis Cluster (the `redis-cluster-e2e` project's); `recordStatements` has
 * every process record its statements in a fresh directory (the `e2e` project's, for statements.test.ts).
 */
export async function provideCluster(
  project: TestProject,
  {
    replicas = 1,
    redisClusterNodes,
    recordStatements = false,
  }: { replicas?: number; redisClusterNodes?: string[]; recordStatements?: boolean } = {},
): Promise<() => Promise<void>> {
  if (externalCluster(project)) return async () => {};
  const statementLogDir = recordStatements ? await mkdtemp(path.join(tmpdir(), 'wms-statements-')) : '';
  // A short upload stall timeout, so the tests of stalled uploads wait seconds, not the default half minute.
  const cluster = await startCluster({
    mode: 'test',
    logs: 'files',
    replicas,
    redisClusterNodes,
    env: { UPLOAD_IDLE_TIMEOUT_MS: '5000', ...(recordStatements && { WMS_STATEMENT_LOG: statementLogDir }) },
  }).catch(async (err: unknown) => {
    if (recordStatements) await rm(statementLogDir, { recursive: true, force: true });
    throw err;
  });
  project.provide('gatewayUrl', cluster.gatewayUrl);
  project.provide('inboxUrl', cluster.inboxUrl);
  project.provide('databaseUrl', cluster.databaseUrl);
  project.provide('jwtPrivateKey', cluster.jwt.privateKey);
  project.provide('redisUrl', cluster.redisUrl);
  project.provide('redisPrefix', cluster.redisPrefix);
  project.provide('storageDir', cluster.storageDir);
  project.provide('metricsUrls', { ...cluster.metricsUrls });
  project.provide('statementLogDir', statementLogDir);
  return async () => {
    await cluster.stop();
    if (recordStatements) await rm(statementLogDir, { recursive: true, force: true });
  };
}

export default (project: TestProject) => provideCluster(project, { recordStatements: true });
