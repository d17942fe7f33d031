import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processEnvironment } from '@wms/testkit';
import { expect } from 'vitest';
import type { ApiResponse } from './http.ts';

// Resident memory is a coarse measure: a fresh process grows by ~35 MiB on its first burst of large uploads (heap and
// allocator warm-up), keeps it for reuse (hiding later bodies of that size), and gives it back when idle. So memory
// tests run many uploads at once, carrying far more than any warm-up accounts for.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The server process (not the worker) of a component of a test cluster, told apart from other clusters by its database. */
export function serverPid(entry: string, databaseUrl: string): number {
  const found = serverPids(entry, databaseUrl);
  expect(found, `one ${entry} server of this cluster`).toHaveLength(1);
  return found[0]!;
}

/** Every server process (replicas included) of a component of a test cluster. */
export function serverPids(entry: string, databaseUrl: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!args.includes(path.join(repoRoot, entry))) continue;
      const env = processEnvironment(Number(name));
      if (env.get('DATABASE_URL') === databaseUrl && env.get('ROLE') === 'server') found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

const statusKiB = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

export interface Growth {
  baselineMiB: number;
  peakMiB: number;
  growthMiB: number;
}

/**
 * How far a process's resident memory rose above where it stood while `work` ran: sampled every 10 ms, and read from
 * the kernel's high-water mark (reset first) where the process may be told to reset it.
 */
export async function rssGrowth(pid: number, work: () => Promise<void>): Promise<Growth> {
  let hwmReset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    hwmReset = false;
  }
  const baseline = statusKiB(pid, 'VmRSS');
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, statusKiB(pid, 'VmRSS'), hwmReset ? statusKiB(pid, 'VmHWM') : 0);
  };
  const timer = setInterval(sample, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  sample();
  return { baselineMiB: baseline / 1024, peakMiB: peak / 1024, growthMiB: (peak - baseline) / 1024 };
}

/** Uploads running at once in an upload memory test. */
export const CONCURRENT_UPLOADS = 16;
/**
 * The most a service may grow by per upload in flight. Measured on this machine with 16 uploads of 10 MiB (+1 byte)
 * at once, the asset service grew by 30-39 MiB when fresh and 6-21 MiB when warm, on either driver. A service holding
 * bodies grows far more: the s3 driver gathering 16 MiB parts grew by 156-161 MiB rejecting them (319-343 MiB storing
 * them), and gathering 5 MiB parts still by 142 MiB rejecting them.
 */
export const PER_UPLOAD_BOUND_MIB = 5;

/**
 * Reserves `CONCURRENT_UPLOADS` assets of `reservedBytes`, uploads `body` to all of them at once, checks each answer,
 * and fails when the service process `pid` grew by `PER_UPLOAD_BOUND_MIB` per upload or more meanwhile.
 */
export async function expectFlatUploads(
  pid: number,
  {
    reservedBytes,
    body,
    reserve,
    upload,
    expectAnswer,
  }: {
    reservedBytes: number;
    body: Buffer;
    reserve: (sizeBytes: number) => Promise<string>;
    upload: (assetId: string, bytes: Buffer) => Promise<ApiResponse>;
    expectAnswer: (res: ApiResponse) => void;
  },
): Promise<void> {
  const ids = await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, () => reserve(reservedBytes)));
  const growth = await rssGrowth(pid, async () => {
    (await Promise.all(ids.map((id) => upload(id, body)))).forEach(expectAnswer);
  });
  expect(growth.growthMiB, JSON.stringify(growth)).toBeLessThan(CONCURRENT_UPLOADS * PER_UPLOAD_BOUND_MIB);
}
