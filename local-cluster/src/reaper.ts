import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isAlive, type Reaped, sleep } from './infra.ts';

// The launcher's children run in process groups of their own (so that a Ctrl-C reaches them only through the
// launcher's orderly stop), which is also why a launcher that dies without that stop (SIGKILL, the OOM killer, a
// killed test run) would leave them running, holding their ports. The reaper is a small process of its own that the
// launcher starts first and tells, on its stdin, which processes it runs. When its stdin ends without `done`, the
// launcher has died, however it died (the kernel closes the pipe), and the reaper ends every process still listed:
// its signal (SIGTERM; SIGINT for Postgres, its fast shutdown), then SIGKILL to what is left after a grace.

export interface Reaper {
  watch(p: Reaped): void;
  forget(pid: number): void;
  /** The launcher stopped everything itself: the reaper exits without ending anything. */
  close(): void;
}

/** How long the reaped processes get between their signal and SIGKILL. */
export const REAP_GRACE_MS = 3000;

const script = fileURLToPath(import.meta.url);

/** Starts the reaper for this process, which it watches. */
export function startReaper(tsxLoader: string): Reaper {
  const child: ChildProcess = spawn(process.execPath, ['--import', tsxLoader, script, 'reap'], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  child.unref();
  // A reaper that failed to start must not take the launcher down with an unhandled error.
  child.on('error', () => undefined);
  child.stdin!.on('error', () => undefined);
  let closed = false;
  const send = (line: string) => {
    if (!closed) child.stdin!.write(`${line}\n`);
  };
  return {
    watch: ({ pid, group, signal }) => send(`watch ${pid} ${group ? 'group' : 'process'} ${signal}`),
    forget: (pid) => send(`forget ${pid}`),
    close: () => {
      if (closed) return;
      send('done');
      closed = true;
      child.stdin!.end();
    },
  };
}

const signal = (target: number, name: NodeJS.Signals) => {
  try {
    process.kill(target, name);
  } catch {
    // already gone
  }
};

/** The reaper's own process: reads the launcher's lines until its stdin ends. */
async function reap(): Promise<void> {
  const watched = new Map<number, Reaped>();
  let done = false;
  let pending = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    pending += chunk as string;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const [verb, pid, kind, sig] = line.split(' ');
      if (verb === 'watch')
        watched.set(Number(pid), { pid: Number(pid), group: kind === 'group', signal: sig as NodeJS.Signals });
      else if (verb === 'forget') watched.delete(Number(pid));
      else if (verb === 'done') done = true;
    }
  }
  if (done) return;
  const targets = [...watched.values()].map((p) => ({ target: p.group ? -p.pid : p.pid, signal: p.signal }));
  for (const { target, signal: name } of targets) signal(target, name);
  const deadline = Date.now() + REAP_GRACE_MS;
  while (Date.now() < deadline && targets.some(({ target }) => isAlive(target))) await sleep(50);
  for (const { target } of targets) if (isAlive(target)) signal(target, 'SIGKILL');
}

if (process.argv[2] === 'reap' && process.argv[1] === script) {
  // Its own group already (detached); a hang-up or Ctrl-C meant for the launcher's terminal is not for it.
  for (const name of ['SIGINT', 'SIGHUP'] as const) process.on(name, () => undefined);
  await reap();
  process.exit(0);
}
