import { randomInt } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Ports for the processes a launcher or a test starts. Probing that a port is free and binding it later leaves a
// window in which another process on the machine (another test file's cluster, a `pnpm start`) can probe the same
// port and hand it out too. So a port handed out is also leased: a file named after it in a directory every such
// process shares, created exclusively and kept until the leasing process exits, by which time whatever it started
// has bound the port or gone. A lease whose process has died without its exit handlers (a signal such as the SIGTERM
// with which vitest ends its workers, a kill -9) stays behind, at most one file per port, and is taken over.

/** Below the kernel's ephemeral range (32768 and up here), which port 0 binds and outgoing connections use. */
const LOW_PORTS = [20_000, 32_000] as const;

const leaseDir = path.join(tmpdir(), 'wms-port-leases');
const leaseFile = (port: number) => path.join(leaseDir, String(port));

/** A process as `<pid> <start time>` (Linux `/proc`), so that a reused pid does not keep a dead owner's leases. */
function identity(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    return undefined;
  }
}

const me = identity(process.pid) ?? `${process.pid} ?`;
const held = new Set<number>();
let releaseOnExit = false;

function ownerAlive(owner: string): boolean {
  const pid = Number(owner.split(' ')[0]);
  return Number.isInteger(pid) && pid > 0 && identity(pid) === owner;
}

function readOwner(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Creates the lease file exclusively, with its owner already in it; false when it exists. It is written aside and
 * linked into place (a link fails when the name exists), so no other process can read a lease that is still empty
 * and take it for a dead owner's.
 */
function create(port: number): boolean {
  const written = `${leaseFile(port)}.new.${process.pid}.${randomInt(1e9)}`;
  writeFileSync(written, me);
  try {
    linkSync(written, leaseFile(port));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(written, { force: true });
  }
}

/**
 * Leases `port` to this process until it exits (or `releasePort`): false when a live process holds it. A dead owner's
 * lease is moved aside (atomically: of two processes taking it over, one moves it) and checked to be the one read,
 * so a lease made meanwhile by a live process is put back, not taken.
 */
export function leasePort(port: number): boolean {
  mkdirSync(leaseDir, { recursive: true });
  if (!releaseOnExit) {
    releaseOnExit = true;
    process.once('exit', () => {
      for (const p of held) releasePort(p);
    });
  }
  if (held.has(port)) return false;
  if (!create(port)) {
    const owner = readOwner(leaseFile(port));
    if (owner === undefined || ownerAlive(owner)) return false;
    const aside = `${leaseFile(port)}.${process.pid}.${randomInt(1e9)}`;
    try {
      renameSync(leaseFile(port), aside);
    } catch {
      return false;
    }
    if (readOwner(aside) !== owner) {
      try {
        linkSync(aside, leaseFile(port));
      } catch {
        // A third process leased the port in between, so two hold it: three racing for one dead lease at once.
      }
      rmSync(aside, { force: true });
      return false;
    }
    rmSync(aside, { force: true });
    if (!create(port)) return false;
  }
  held.add(port);
  return true;
}

/** Ends this process's lease of `port` (it is bound by now, or no longer needed). */
export function releasePort(port: number): void {
  if (!held.delete(port)) return;
  if (readOwner(leaseFile(port)) === me) rmSync(leaseFile(port), { force: true });
}

/** Whether nothing listens on 127.0.0.1:port right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Distinct ports that nothing listens on and no other process has been handed, leased to this process until it
 * exits: bind them any time before then.
 */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let tries = 0; ports.length < count; tries++) {
    if (tries > count * 50) {
      ports.forEach(releasePort);
      throw new Error(`no ${count} free ports found between ${LOW_PORTS[0]} and ${LOW_PORTS[1]}`);
    }
    const port = LOW_PORTS[0] + randomInt(LOW_PORTS[1] - LOW_PORTS[0]);
    if (!leasePort(port)) continue;
    if (await isPortFree(port)) ports.push(port);
    else releasePort(port);
  }
  return ports;
}

/** A port as `freePorts` hands them out. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}
