import { describe, expect, it } from 'vitest';
import { poolShareOf, replicasFromEnv, withReplicas } from '../src/cluster.ts';
import { components } from '../src/components.ts';

describe(replicasFromEnv.name, () => {
  it('gives every replicable row WMS_REPLICAS, a row its own WMS_REPLICAS_<ROW>, and leaves the provider out', () => {
    const rows = replicasFromEnv({ WMS_REPLICAS: '2', WMS_REPLICAS_MESSAGING_WORKER: '3' });
    expect(rows).toMatchObject({ gateway: 2, messaging: 2, 'messaging-worker': 3, realtime: 2, 'realtime-worker': 2 });
    expect(rows).not.toHaveProperty('soketi');
    expect(new Set(Object.values(replicasFromEnv({})))).toEqual(new Set([1]));
  });

  it('refuses counts outside 1..8 and rows that cannot run replicas, naming the variable', () => {
    for (const value of ['0', '9', '1.5', 'two', '-1'])
      expect(() => replicasFromEnv({ WMS_REPLICAS: value })).toThrow(
        `WMS_REPLICAS must be a whole number from 1 to 8, got "${value}"`,
      );
    expect(() => replicasFromEnv({ WMS_REPLICAS_GATEWAY: '9' })).toThrow('WMS_REPLICAS_GATEWAY must be');
    expect(() => replicasFromEnv({ WMS_REPLICAS_SOKETI: '2' })).toThrow(
      'WMS_REPLICAS_SOKETI: no row soketi runs replicas',
    );
    expect(() => replicasFromEnv({ WMS_REPLICAS_NOPE: '2' })).toThrow('no row nope');
  });
});

describe(poolShareOf.name, () => {
  it("splits a service row's Postgres pool over its replicas, servers and workers alike, and leaves single rows alone", () => {
    const pools = Object.fromEntries(
      withReplicas(components, { messaging: 2, 'messaging-worker': 3, identity: 1 }).map((spec) => [
        spec.name,
        poolShareOf(spec).DATABASE_POOL_MAX,
      ]),
    );
    expect(pools).toMatchObject({
      messaging: '10',
      'messaging-2': '10',
      'messaging-worker': '7',
      'messaging-worker-3': '7',
    });
    expect(pools.identity).toBeUndefined();
    expect(pools.gateway).toBeUndefined();
  });
});
