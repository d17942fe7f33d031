import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './infra.ts';

const run = promisify(execFile);

/** A Postgres of a test's own, to run a cluster against (`startCluster({ postgresUrl })`) and to stop under it. */
export interface ScratchPostgres {
  /** Admin URL (user postgres, database postgres, trust authentication). */
  url: string;
  port: number;
  dataDir: string;
  /** Stops the server and keeps its data (`immediate` is a crash: no checkpoint, clients cut off); `start()` brings it back on the same port. */
  halt(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and deletes its files. Idempotent. */
  remove(): Promise<void>;
}

/**
 * Initialises and starts a throwaway Postgres from the machine's binaries (`initdb`, `pg_ctl` on PATH or under
 * /usr/lib/postgresql) on a free port of 127.0.0.1, without fsync. Postgres refuses to run as root, so as root it
 * runs as the `postgres` OS user.
 */
export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const root = await mkdtemp(path.join(tmpdir(), 'wms-scratch-pg-'));
  const asRoot = process.getuid?.() === 0;
  const pgRun = (bin: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', pgBinary(bin), ...args], { timeout: 60_000 }) : run(pgBinary(bin), args, { timeout: 60_000 });
  if (asRoot) await run('chown', ['postgres:', root]);
  const dataDir = path.join(root, 'data');
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c full_page_writes=off`;

  let postmasterPid: number | undefined;
  // Should the test process exit without remove(), the server must not outlive it.
  const onExit = () => {
    if (postmasterPid === undefined) return;
    try {
      process.kill(postmasterPid, 'SIGQUIT');
    } catch {
      // already gone
    }
  };
  const start = async () => {
    await pgRun('pg_ctl', ['-D', dataDir, '-l', path.join(root, 'server.log'), '-o', options, '-w', '-t', '30', 'start']).catch(async (err: unknown) => {
      const logTail = (await readFile(path.join(root, 'server.log'), 'utf8').catch(() => '')).split('\n').slice(-20).join('\n');
      throw new Error(`scratch postgres did not start: ${err instanceof Error ? err.message : String(err)}\n${logTail}`);
    });
    postmasterPid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  };
  const halt = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!existsSync(path.join(dataDir, 'postmaster.pid'))) return;
    await pgRun('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
    postmasterPid = undefined;
  };

  try {
    await pgRun('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    process.on('exit', onExit);
    await start();
  } catch (err) {
    onExit();
    process.removeListener('exit', onExit);
    await rm(root, { recursive: true, force: true });
    throw err;
  }

  let removing: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    halt,
    start,
    remove: () =>
      (removing ??= (async () => {
        await halt('immediate').catch(onExit);
        process.removeListener('exit', onExit);
        await rm(root, { recursive: true, force: true });
      })()),
  };
}

function pgBinary(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = path.join('/usr/lib/postgresql', version, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} not found on PATH or under /usr/lib/postgresql (install the postgresql package)`);
}
