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

/** One test-mode cluster for the whole e2e run: fresh database and Redis prefix, removed again at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A short upload stall timeout, so the tests of stalled uploads wait seconds, not the default half minute.
  const cluster = await startCluster({ mode: 'test', logs: 'files', env: { UPLOAD_IDLE_TIMEOUT_MS: '5000' } });
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
