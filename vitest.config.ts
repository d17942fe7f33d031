import { defaultExclude, defineConfig } from 'vitest/config';
import { REDIS_INTEGRATION_FILES } from './test/redis-cluster/files.ts';
import { LastFilesSequencer } from './test/sequencer.ts';
import { SummaryReporter } from './test/summary-reporter.ts';

/** The end-to-end files that start their own cluster rather than use the project's (`useCluster`). */
const OWN_CLUSTER = [
  'faults',
  'realtime-faults',
  'delivery-faults',
  'graceful-stop',
  'replicas',
  'assets-s3',
  'statement-budget',
].map((name) => `test/e2e/${name}.test.ts`);

// Three levels (STYLE.md): unit tests beside the code, integration tests against the real Postgres and Redis,
// end-to-end tests through the gateway of a whole local cluster; and the local cluster's own tests and delivery's.
export default defineConfig({
  test: {
    reporters: ['default', new SummaryReporter()],
    // The e2e project's files in a fixed order, its statement test after the others but the fuzz test (test/sequencer.ts).
    sequence: { sequencer: LastFilesSequencer },
    // Two files at a time (vitest's default on two cores is one): unit, integration, local-cluster, delivery and e2e-own
    // files each make their own databases, ports and processes, and much of their time is spent waiting on them. The
    // e2e and e2e-replicas projects run after those, one file at a time (maxWorkers 1): their files share a cluster.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'services/*/src/**/*.test.ts',
            'gateway/src/**/*.test.ts',
            'testkit/src/**/*.test.ts',
            'protos/src/**/*.test.ts',
            'test/docs/**/*.test.ts',
            'test/citus/**/*.test.ts',
            'test/redis-cluster/files.test.ts',
          ],
          // test/citus holds the integration project's catalog test too.
          exclude: [...defaultExclude, '**/*.int.test.ts'],
          // A few take seconds of CPU (a 40-megapixel image decoded, a strict OpenAPI validator, a 16 MiB upload), which
          // vitest's 5 s default does not leave them on a machine busy with the other projects or a bench.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['services/*/test/**/*.int.test.ts', 'gateway/test/**/*.int.test.ts', 'test/citus/**/*.int.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The local cluster's own tests start the clusters they need; they need no shared one.
          name: 'local-cluster',
          include: ['local-cluster/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // What a deployment runs: the Helm chart rendered and validated, each package's production build booted.
          name: 'delivery',
          include: ['charts/*/test/**/*.test.ts', 'test/delivery/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'e2e',
          maxWorkers: 1,
          include: ['test/e2e/**/*.test.ts'],
          exclude: OWN_CLUSTER,
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // End-to-end files that start a cluster of their own (processes stopped and frozen, S3 storage, statement
          // counts): they share nothing with the other files, so they run beside the other projects.
          name: 'e2e-own',
          include: OWN_CLUSTER,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The previous release beside this one (docs/operations.md#upgrades): a rolling upgrade from it under load,
          // and its integration tests on this release's schema. One file at a time: they share its tree.
          name: 'upgrade',
          maxWorkers: 1,
          include: ['test/upgrade/**/*.test.ts'],
          globalSetup: ['test/upgrade/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // The core scenarios again on a cluster with two of every role: peers balanced over both replicas, two
          // gateways behind the launcher's balancer, two workers' relays and sweeps (issue 24).
          name: 'e2e-replicas',
          maxWorkers: 1,
          include: [
            'test/e2e/{workspaces,channels,conversations,messages,message-actions,read-state,realtime,sessions}.test.ts',
          ],
          globalSetup: ['test/e2e/global-setup-replicas.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The services' and gateway's integration tests that use Redis, with a Redis Cluster for their Redis (three
          // masters on loopback): every multi-key command must stay in one slot (docs/operations.md#redis-cluster).
          name: 'redis-cluster',
          include: REDIS_INTEGRATION_FILES,
          // After the other projects, whose integration files these are again: side by side they doubled the load.
          sequence: { groupOrder: 1 },
          globalSetup: ['test/redis-cluster/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The core scenarios on a cluster whose Redis is a Redis Cluster.
          name: 'redis-cluster-e2e',
          // Last, one file at a time (a group has one maxWorkers).
          sequence: { groupOrder: 2 },
          maxWorkers: 1,
          include: [
            'test/e2e/{workspaces,channels,conversations,messages,message-actions,read-state,realtime,sessions}.test.ts',
          ],
          globalSetup: ['test/redis-cluster/global-setup-e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
