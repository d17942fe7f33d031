import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

// What tests of a local cluster see of it from outside: its processes, their sockets and the launcher's log.

/** The live processes a cluster started, told apart from other clusters' by the `DATABASE_URL` they were given. */
export function processesOf(databaseUrl: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (env.includes(`DATABASE_URL=${databaseUrl}`) && !readFileSync(`/proc/${name}/stat`, 'utf8').includes(') Z '))
        found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** The launcher's own log of a `logs: 'files'` cluster. */
export function launcherLog(logDir: string | undefined): Promise<string> {
  if (!logDir) throw new Error('the cluster writes no log files (logs: pretty or json)');
  return readFile(path.join(logDir, 'launcher.log'), 'utf8').catch(() => '');
}

/** The lines of a `logs: 'files'` cluster's logs that contain any of `needles` (request ids), each after its file's name. */
export async function logLinesWith(logDir: string | undefined, needles: string[]): Promise<string[]> {
  if (!logDir || needles.length === 0) return [];
  const found: string[] = [];
  for (const file of (await readdir(logDir)).sort()) {
    const text = await readFile(path.join(logDir, file), 'utf8').catch(() => '');
    for (const line of text.split('\n')) if (needles.some((n) => line.includes(n))) found.push(`${file}: ${line}`);
  }
  return found;
}

/** The local addresses with a listening TCP socket on `port` (IPv4 dotted, IPv6 `::`/`::1` or raw hex), from /proc/net. */
export function listenAddresses(port: number): string[] {
  const found: string[] = [];
  for (const [, local, , state] of tcpSockets()) {
    if (!local || state !== '0A') continue;
    const [hexAddress, hexPort] = local.split(':') as [string, string];
    if (parseInt(hexPort, 16) !== port) continue;
    found.push(hexAddress.length === 8 ? hexIpv4(hexAddress) : hexIpv6(hexAddress));
  }
  return found;
}

/**
 * The machine's TCP sockets, IPv4 and IPv6, a row of /proc/net/tcp's fields each: sl, local address:port (hex),
 * remote, state (0A: listening), queues, timer, retransmits, uid, timeout, inode.
 */
function tcpSockets(): string[][] {
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => {
    let table: string;
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    return table
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/));
  });
}

// /proc/net/tcp writes an IPv4 address as one little-endian 32-bit word.
const hexIpv4 = (hex: string) => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
const hexIpv6 = (hex: string) => (/^0+$/.test(hex) ? '::' : hex === '00000000000000000000000001000000' ? '::1' : hex);

/**
 * Which of `pids` holds the TCP connection whose local port is `port` (a client's side, e.g. the `client_port` that
 * Postgres reports of a backend's connection), from /proc; undefined when none does.
 */
export function ownerOfConnection(port: number, pids: readonly number[]): number | undefined {
  const inodes = new Set(
    tcpSockets()
      .filter((fields) => parseInt(fields[1]?.split(':').at(-1) ?? '', 16) === port)
      .map((fields) => fields[9]!),
  );
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`))?.[1];
        return inode !== undefined && inodes.has(inode);
      });
    } catch {
      return false;
    }
  });
}

function readlinkOrEmpty(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '';
  }
}
