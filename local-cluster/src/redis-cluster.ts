import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { startRedisServer } from './infra.ts';

const SLOTS = 16384;

/** A Redis Cluster the launcher started: its nodes as `REDIS_CLUSTER_NODES` lists them. */
export interface StartedRedisCluster {
  nodes: string[];
  stop(): Promise<void>;
}

/**
 * Starts a Redis Cluster of `masters` `redis-server` processes on loopback (no replicas, no persistence), the slots
 * shared out evenly, and resolves once every node reports the cluster ok. One master owning every slot already refuses
 * a command across slots (CROSSSLOT); several also redirect commands between nodes (MOVED).
 */
export async function startRedisCluster(masters: number, log: (line: string) => void): Promise<StartedRedisCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wms-redis-cluster-'));
  const servers = await Promise.all(
    Array.from({ length: masters }, (_, i) =>
      startRedisServer(log, [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        path.join(dir, `nodes-${i}.conf`),
        '--cluster-node-timeout',
        '5000',
      ]),
    ),
  );
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  const clients = servers.map((s) => new Redis(s.url, { lazyConnect: true, maxRetriesPerRequest: 1 }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    const ports = servers.map((s) => Number(new URL(s.url).port));
    for (const port of ports.slice(1)) await clients[0]!.call('CLUSTER', 'MEET', '127.0.0.1', String(port));
    await Promise.all(
      clients.map((c, i) =>
        c.call(
          'CLUSTER',
          'ADDSLOTSRANGE',
          String(Math.floor((SLOTS * i) / masters)),
          String(Math.floor((SLOTS * (i + 1)) / masters) - 1),
        ),
      ),
    );
    const deadline = Date.now() + 30_000;
    while (!(await allOk(clients, masters))) {
      if (Date.now() > deadline)
        throw new Error(`redis cluster: not ok within 30 s (${servers.map((s) => s.url).join(', ')})`);
      await sleep(100);
    }
    log(`redis cluster: ${masters} masters on ${ports.join(', ')}`);
    return { nodes: ports.map((p) => `127.0.0.1:${p}`), stop };
  } catch (err) {
    await stop();
    throw err;
  } finally {
    for (const c of clients) c.disconnect();
  }
}

/** Whether every node reports the cluster ok, knowing all `masters`. */
async function allOk(clients: Redis[], masters: number): Promise<boolean> {
  const infos = await Promise.all(clients.map((c) => c.call('CLUSTER', 'INFO') as Promise<string>));
  return infos.every((i) => i.includes('cluster_state:ok') && i.includes(`cluster_known_nodes:${masters}`));
}
