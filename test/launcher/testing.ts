import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

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
