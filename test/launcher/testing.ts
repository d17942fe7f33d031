import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sleep } from './infra.ts';

/** The live processes a cluster started, told apart from other clusters' by the `DATABASE_URL` they were given. */
export function processesOf(databaseUrl: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (env.includes(`DATABASE_URL=${databaseUrl}`) && !readFileSync(`/proc/${name}/stat`, 'utf8').includes(') Z ')) found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Whether a process with this pid runs (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** The launcher's own log of a `logs: 'files'` cluster. */
export function launcherLog(logDir: string | undefined): Promise<string> {
  if (!logDir) throw new Error('the cluster writes no log files (logs: inherit)');
  return readFile(path.join(logDir, 'launcher.log'), 'utf8').catch(() => '');
}

/** Polls until `probe` returns something other than undefined; fails naming `what` after the timeout. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}
