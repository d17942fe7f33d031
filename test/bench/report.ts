import os from 'node:os';
import type { Load, Measurement } from './measure.ts';

/** A measured route beside the baseline it is compared with (none for the baselines themselves). */
export interface Row {
  measurement: Measurement;
  baseline?: Measurement;
}

/** Where and how the figures were taken. */
export function machineLines(load: Load, warmup: Load, postgresVersion: string): string[] {
  const cpus = os.cpus();
  return [
    `date: ${new Date().toISOString()}`,
    `machine: ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.arch()}`,
    `software: node ${process.version}, PostgreSQL ${postgresVersion}; cluster, load generator and baseline loops on the same machine`,
    `load: ${load.connections} connections, ${load.seconds} s per route after a ${warmup.seconds} s warm-up; latencies of successful requests`,
  ];
}

const rate = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const ms = (value: number) => value.toFixed(2);

/** A plain text table: each route's throughput and latency, and its throughput as a share of its baseline's. */
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
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 || i === 6 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}
