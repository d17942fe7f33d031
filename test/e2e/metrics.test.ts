import { Queue } from 'bullmq';
import { listenAddresses, waitFor } from '@wms/testkit';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { components } from '@wms/local-cluster/components';
import { type Account, signUp } from './support/accounts.ts';
import { api, gatewayUrl } from './support/http.ts';
import { image, multipart } from './support/images.ts';
import { createChannel, postText } from './support/messages.ts';
import { createWorkspace, inWorkspace, myActor } from './support/workspaces.ts';

// Every process of the shared cluster serves Prometheus metrics: each server and worker on its METRICS_PORT (the
// launcher's wiring, provided by the global setup), the gateway at its own /metrics. After a few API calls that reach
// every service and a job on every worker's queue, each shows the families it should, with values that fit.

const servers = components.filter((c) => c.kind === 'grpc').map((c) => c.name);
const workers = components.filter((c) => c.kind === 'worker').map((c) => c.name);

async function scrape(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  expect(res.status, url).toBe(200);
  return res.text();
}

/** The samples of `name` whose labels include `labels`, summed; undefined when there is none. */
function sum(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) total = (total ?? 0) + Number(match[3]);
  }
  return total;
}

/** The label values of `label` over the samples of `name`. */
function labelValues(text: string, name: string, label: string): Set<string> {
  const values = new Set<string>();
  for (const m of text.matchAll(new RegExp(`^${name}\\{[^}]*\\b${label}="([^"]*)"`, 'gm'))) values.add(m[1]!);
  return values;
}

/** Adds a job as the queue's scheduler would and waits until a worker finished it (runJob's poll needs a test). */
async function runJobOnce(queueName: string, jobName: string): Promise<void> {
  const redis = new URL(inject('redisUrl'));
  const queue = new Queue(queueName, {
    connection: { host: redis.hostname, port: Number(redis.port || 6379) },
    prefix: `${inject('redisPrefix')}:bull`,
  });
  try {
    const { id } = await queue.add(jobName, {});
    await waitFor(`${queueName} job finished`, async () => Boolean((await queue.getJob(id!))?.finishedOn));
  } finally {
    await queue.close();
  }
}

let owner: Account;
let urls: Record<string, string>;
const scraped: Record<string, string> = {};

beforeAll(async () => {
  urls = inject('metricsUrls');
  owner = await signUp('metrics');
  expect((await api('GET', '/users/me', { token: owner.token })).status).toBe(200);
  const ws = (await createWorkspace(owner)).id;
  const conv = await createChannel(owner, ws);
  const asset = await inWorkspace(owner, ws, 'POST', `/conversations/${conv}/assets`, {
    body: { name: 'a.txt', content_type: 'text/plain', size_bytes: 3 },
  });
  expect(asset.status, JSON.stringify(asset.body)).toBe(201);
  await postText(owner, ws, conv, 'counted');
  expect((await inWorkspace(owner, ws, 'GET', `/conversations/${conv}/messages?limit=5`)).status).toBe(200);
  // A job on each worker's queue: an avatar to resize (the upload waits for it), a sweep of messaging and of asset.
  const me = await myActor(owner, ws);
  const avatar = await inWorkspace(
    owner,
    ws,
    'PUT',
    `/workspace/actors/${me.id}/avatar`,
    multipart(await image('png'), 'file', 'me.png'),
  );
  expect(avatar.status, JSON.stringify(avatar.body)).toBe(200);
  await runJobOnce('messaging-cleanup', 'sweep');
  await runJobOnce('asset-cleanup', 'sweep-unattached');
  await runJobOnce('realtime-events', 'sweep');
  expect((await inWorkspace(owner, ws, 'GET', '/realtime/config')).status).toBe(200);
  for (const [name, url] of Object.entries(urls)) scraped[name] = await scrape(url);
  scraped.gateway = await scrape(`${gatewayUrl()}/metrics`);
});

describe('metrics of every process', () => {
  it('gives every server and worker a metrics endpoint on loopback', () => {
    expect(Object.keys(urls).sort()).toEqual([...servers, ...workers].sort());
    for (const url of Object.values(urls)) {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(listenAddresses(Number(new URL(url).port))).toEqual(['127.0.0.1']);
    }
  });

  it('shows Node metrics with event loop lag and the database pool in each server and worker', () => {
    for (const name of [...servers, ...workers]) {
      const text = scraped[name]!;
      expect(sum(text, 'nodejs_eventloop_lag_seconds'), name).toBeGreaterThanOrEqual(0);
      expect(sum(text, 'nodejs_eventloop_lag_p99_seconds'), name).toBeGreaterThanOrEqual(0);
      expect(sum(text, 'process_resident_memory_bytes'), name).toBeGreaterThan(0);
      expect(sum(text, 'wms_db_pool_connections_max'), name).toBeGreaterThan(0);
      const inUse = sum(text, 'wms_db_pool_connections_in_use')!;
      expect(inUse, name).toBeGreaterThanOrEqual(0);
      expect(inUse, name).toBeLessThanOrEqual(sum(text, 'wms_db_pool_connections_max')!);
      expect(sum(text, 'wms_db_pool_connections_idle'), name).toBeGreaterThanOrEqual(0);
      expect(sum(text, 'wms_db_pool_pending_acquires'), name).toBeGreaterThanOrEqual(0);
    }
  });

  it('counts each server’s gRPC calls by method and code, with their latency', () => {
    const expected: Record<string, string[]> = {
      identity: ['Register', 'GetMe'],
      workspace: ['CreateWorkspace', 'SetActorAvatar'],
      messaging: ['CreateChannel', 'CreateMessage', 'ListMessages'],
      asset: ['CreateAsset'],
      realtime: ['GetRealtimeConfig'],
    };
    expect(Object.keys(expected).sort()).toEqual([...servers].sort());
    for (const [name, methods] of Object.entries(expected)) {
      const text = scraped[name]!;
      for (const method of methods) {
        expect(
          sum(text, 'wms_grpc_server_handled_total', { method, code: 'OK' }),
          `${name} ${method}`,
        ).toBeGreaterThanOrEqual(1);
        expect(
          sum(text, 'wms_grpc_server_handling_seconds_count', { method, code: 'OK' }),
          `${name} ${method}`,
        ).toBeGreaterThanOrEqual(1);
        expect(
          sum(text, 'wms_grpc_server_handling_seconds_sum', { method, code: 'OK' }),
          `${name} ${method}`,
        ).toBeGreaterThan(0);
      }
      expect([...labelValues(text, 'wms_grpc_server_handled_total', 'service')], name).toEqual([
        `wms.${name}.v1.${name[0]!.toUpperCase()}${name.slice(1)}Service`,
      ]);
      // Labels stay bounded: status names, never ids.
      for (const code of labelValues(text, 'wms_grpc_server_handled_total', 'code')) expect(code).toMatch(/^[A-Z_]+$/);
      expect(text, name).not.toContain('wms_queue_jobs{');
    }
  });

  it("reports each worker's queues by state and counts its jobs' outcomes", () => {
    const expected: Record<string, string[]> = {
      'workspace-worker': ['avatar-resize', 'workspace-purge'],
      'messaging-worker': ['messaging-cleanup'],
      'asset-worker': ['asset-cleanup'],
      'realtime-worker': ['realtime-events', 'realtime-occupancy'],
    };
    expect(Object.keys(expected).sort()).toEqual([...workers].sort());
    for (const [name, queues] of Object.entries(expected)) {
      const text = scraped[name]!;
      expect(labelValues(text, 'wms_queue_jobs', 'queue'), name).toEqual(new Set(queues));
      for (const queue of queues) {
        for (const state of ['waiting', 'active', 'delayed', 'failed']) {
          expect(sum(text, 'wms_queue_jobs', { queue, state }), `${name} ${queue} ${state}`).toBeGreaterThanOrEqual(0);
        }
      }
      expect(
        sum(text, 'wms_queue_job_outcomes_total', { queue: queues[0]!, outcome: 'completed' }),
        name,
      ).toBeGreaterThanOrEqual(1);
      expect(text, name).not.toContain('wms_grpc_server_handled_total{');
    }
    // The sweeps repeat on a schedule: each queue holds its next run, delayed.
    expect(
      sum(scraped['messaging-worker']!, 'wms_queue_jobs', { queue: 'messaging-cleanup', state: 'delayed' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("keeps the gateway's own metrics at its /metrics", () => {
    const text = scraped.gateway!;
    expect(
      sum(text, 'wms_http_request_duration_seconds_count', { route: '/users/me', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
