import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePorts, leasePort, releasePort } from '../src/ports.ts';

const ports = path.resolve(import.meta.dirname, '../src/ports.ts');
const leaseFile = (port: number) => path.join(tmpdir(), 'wms-port-leases', String(port));

/** Another process that runs `code` with the ports module as `ports`, prints its result as JSON, then waits for stdin. */
function peer(code: string): { child: ChildProcess; result: Promise<unknown> } {
  const script = `const ports = await import(${JSON.stringify(ports)}); console.log(JSON.stringify(await (async () => { ${code} })())); process.stdin.resume();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const result = (async () => {
    const [line] = (await once(child.stdout.setEncoding('utf8'), 'data')) as [string];
    return JSON.parse(line) as unknown;
  })();
  return { child, result };
}

const peers: ChildProcess[] = [];
const start = (code: string) => {
  const p = peer(code);
  peers.push(p.child);
  return p;
};

afterEach(async () => {
  await Promise.all(
    peers.splice(0).map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }),
  );
});

describe('freePorts', () => {
  it('never hands one port to two processes asking at once, before either binds it', async () => {
    // 4 × 150 random picks out of 12,000 ports: without leases, some port is picked twice all but once in 3 million runs.
    const lists = (await Promise.all(
      Array.from({ length: 4 }, () => start('return ports.freePorts(150);').result),
    )) as number[][];
    const all = lists.flat();
    expect(all).toHaveLength(600);
    expect(new Set(all).size).toBe(600);
  });

  it('keeps a lease while its process lives, ends it when it exits, and takes over one whose process was killed', async () => {
    const [port] = await freePorts(1);
    releasePort(port!);

    const holder = start(`return ports.leasePort(${port});`);
    expect(await holder.result).toBe(true);
    expect(leasePort(port!)).toBe(false);
    holder.child.stdin!.end();
    await once(holder.child, 'exit');
    expect(existsSync(leaseFile(port!))).toBe(false);

    const killed = start(`return ports.leasePort(${port});`);
    expect(await killed.result).toBe(true);
    killed.child.kill('SIGKILL');
    await once(killed.child, 'exit');
    expect(existsSync(leaseFile(port!))).toBe(true);
    expect(leasePort(port!)).toBe(true);
    releasePort(port!);
    expect(existsSync(leaseFile(port!))).toBe(false);
  });
});
