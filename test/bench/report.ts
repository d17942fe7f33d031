import os from 'node:os';
import type { EventLoad, EventMeasurement } from './events.ts';
import type { Load, Measurement } from './measure.ts';
import { OPEN_LOOP_TIMEOUT_MS, type OpenLoad, type OpenLoopMeasurement } from './open-loop.ts';

/** A measured route beside the baseline it is compared with (none for the baselines themselves). */
export interface Row {
  measurement: Measurement;
  baseline?: Measurement;
}

/** Where and how the figures were taken. */
export function machineLines(
  load: Load,
  warmup: Load,
  postgresVersion: string,
  replicas: Readonly<Record<string, number>>,
): string[] {
  const cpus = os.cpus();
  return [
    `date: ${new Date().toISOString()}`,
    `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.arch()}`,
    `software: node ${process.version}, PostgreSQL ${postgresVersion}; cluster, load generator and baseline loops on the same machine`,
    `replicas: ${replicaLine(replicas)}`,
    `load: ${load.connections} connections, ${load.seconds} s per route after a ${warmup.seconds} s warm-up; latencies of successful requests`,
  ];
}

/** `1 of each` or, with WMS_REPLICAS, how many of which rows (several gateways are handed the connections on the port by the launcher's balancer, in this process). */
function replicaLine(replicas: Readonly<Record<string, number>>): string {
  const several = Object.entries(replicas).filter(([, n]) => n > 1);
  if (several.length === 0) return '1 of each process';
  return `${several.map(([row, n]) => `${n} ${row}`).join(', ')} (WMS_REPLICAS); several gateways handed their connections by the launcher's balancer, which runs in the bench process`;
}

const rate = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const ms = (value: number) => value.toFixed(2);

/** A plain text table; the columns named in `left` are aligned left, the others (figures) right. */
export function render(header: readonly string[], cells: readonly string[][], left: readonly string[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (left.includes(header[i]!) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

/** Each route's throughput and latency, and its throughput as a share of its baseline's. */
export function table(rows: readonly Row[]): string {
  const header = ['route', 'req/s', 'p50 ms', 'p99 ms', 'ok', 'failed', 'baseline', 'baseline req/s', 'ratio'];
  const cells = rows.map(({ measurement: m, baseline: b }) => [
    m.name,
    rate(m.rps),
    ms(m.p50Ms),
    ms(m.p99Ms),
    String(m.ok),
    String(m.failed),
    b?.name ?? '-',
    b ? rate(b.rps) : '-',
    b ? (m.rps / b.rps).toFixed(3) : '-',
  ]);
  return render(header, cells, ['route', 'baseline']);
}

/** The event path: how it was loaded, how many events came of the posts, and how long after each post's answer. */
export function eventLines(m: EventMeasurement, warmup: EventLoad): string[] {
  const header = [
    'event path',
    'posts/s',
    'posts',
    'failed',
    'events',
    'missing',
    'extra',
    'p50 ms',
    'p99 ms',
    'max ms',
  ];
  const cells = [
    [
      'POST → message.created',
      rate(m.rate),
      String(m.posts),
      String(m.failed),
      String(m.events),
      String(m.missing),
      String(m.extra),
      ms(m.p50Ms),
      ms(m.p99Ms),
      ms(m.maxMs),
    ],
  ];
  return [
    `event path: posts sent open loop at ${rate(m.rate)}/s for ${m.seconds} s after a ${warmup.seconds} s warm-up; latency from each post's 201 answer to its message.created at a pusher-js client subscribed through the gateway`,
    '',
    render(header, cells, ['event path']),
  ];
}

/** The open-loop runs: requests sent on a schedule, latency from each one's scheduled send to the end of its answer. */
export function openLoopLines(runs: readonly OpenLoopMeasurement[], warmup: OpenLoad): string[] {
  const header = ['open loop', 'rate/s', 'sent', 'ok', 'failed', 'achieved/s', 'p50 ms', 'p99 ms', 'max ms'];
  const cells = runs.map((m) => [
    m.name,
    rate(m.rate),
    String(m.sent),
    String(m.ok),
    String(m.failed),
    rate(m.achievedRps),
    ms(m.p50Ms),
    ms(m.p99Ms),
    ms(m.maxMs),
  ]);
  const seconds = runs[0]?.seconds ?? 0;
  return [
    `open loop: one request every 1/rate s for ${seconds} s after a ${warmup.seconds} s warm-up at the same rate, whatever the earlier ones are doing; latency from each request's scheduled send to the end of its answer (queueing included); no answer within ${OPEN_LOOP_TIMEOUT_MS / 1000} s counts as failed; achieved: successful answers per second up to the last answer`,
    '',
    render(header, cells, ['open loop']),
  ];
}
