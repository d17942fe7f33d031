import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HandoffTarget, handoffTarget } from '@wms/kit/handoff';
import { freePort, waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Balancer, startBalancer } from '../src/balancer.ts';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'handoff-gateway.ts');
const children: ChildProcess[] = [];
let port: number;
let balancer: Balancer;
let a: HandoffTarget;
let b: HandoffTarget;
/** What the balancer logged: nothing, in these tests. */
const logged: string[] = [];

/** A stand-in gateway answering with its name, watched from its start as the launcher watches its gateways. */
async function gateway(name: string): Promise<HandoffTarget> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, NAME: name },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  const target = handoffTarget(child);
  await new Promise<void>((resolve) => child.on('message', (message) => message === 'up' && resolve()));
  return target;
}

/** Who answers each of `count` requests, each on a connection of its own (or all on one kept alive). */
async function answers(count: number, agent?: http.Agent): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    names.push(
      await new Promise<string>((resolve, reject) => {
        const req = http.get(
          { host: '127.0.0.1', port, path: '/', agent: agent ?? false, headers: agent ? {} : { connection: 'close' } },
          (res) => {
            let body = '';
            res
              .setEncoding('utf8')
              .on('data', (chunk: string) => (body += chunk))
              .on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
      }),
    );
  }
  return names;
}

const count = (names: string[], name: string) => names.filter((n) => n === name).length;

beforeAll(async () => {
  [a, b] = await Promise.all([gateway('a'), gateway('b')]);
  port = await freePort();
  balancer = await startBalancer(
    port,
    () => [a, b],
    (line) => logged.push(line),
  );
});

afterAll(async () => {
  await balancer?.close();
  for (const child of children) child.kill('SIGKILL');
});

describe('the local balancer', () => {
  it('hands connections only to a gateway that serves them, and in turn once both do', async () => {
    // Neither serves yet: a connection is closed at once, not left hanging.
    await expect(answers(1)).rejects.toThrow();

    a.child.send('serve');
    await waitFor('a to serve', () => a.serving());
    expect(await answers(6)).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);

    b.child.send('serve');
    await waitFor('b to serve', () => b.serving());
    const both = await answers(6);
    expect([count(both, 'a'), count(both, 'b')]).toEqual([3, 3]);
  });

  it('leaves a kept-alive connection with the gateway it reached', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const names = await answers(6, agent);
      expect(
        names.every((n) => n === names[0]),
        names.join(),
      ).toBe(true);
      // The other gateway still gets the next new connection.
      expect(await answers(2)).toEqual(names[0] === 'a' ? ['b', 'a'] : ['a', 'b']);
    } finally {
      agent.destroy();
    }
  });

  it('hands nothing to a gateway that left (closed its channel, as a stopping one does first)', async () => {
    a.child.send('leave');
    await waitFor('a to leave', () => !a.serving());
    expect(await answers(4)).toEqual(['b', 'b', 'b', 'b']);
    expect(logged).toEqual([]);
  });
});
