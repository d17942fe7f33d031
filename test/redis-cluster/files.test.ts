import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { NOT_ON_REDIS_CLUSTER, REDIS_INTEGRATION_FILES } from './files.ts';

it('runs every integration test file that uses Redis on the Redis Cluster too', () => {
  const files = ['gateway', ...readdirSync('services').map((s) => `services/${s}`)].flatMap((dir) =>
    readdirSync(dir).includes('test')
      ? readdirSync(`${dir}/test`, { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith('.ts'))
          .map((f) => `${dir}/test/${f}`)
      : [],
  );
  const usingRedis = files
    .filter((f) => /\btestRedis\b/.test(readFileSync(f, 'utf8')))
    .filter((f) => !NOT_ON_REDIS_CLUSTER.includes(f));
  // A harness that uses Redis counts for every test file that imports it.
  const harnesses = usingRedis.filter((f) => !f.endsWith('.int.test.ts'));
  const viaHarness = files.filter(
    (f) =>
      f.endsWith('.int.test.ts') &&
      harnesses.some((h) => readFileSync(f, 'utf8').includes(`'./${h.split('/').at(-1)}'`)),
  );
  const expected = [...new Set([...usingRedis.filter((f) => f.endsWith('.int.test.ts')), ...viaHarness])]
    .filter((f) => !NOT_ON_REDIS_CLUSTER.includes(f))
    .sort();
  expect([...REDIS_INTEGRATION_FILES].sort()).toEqual(expected);
});
