import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures.ts';

// Issue 39's budget: the app's JavaScript at most 250 KB gzipped, as the build that the gateway serves has it.
const BUDGET = 250 * 1024;

test('the built JavaScript stays within 250 KB gzipped', () => {
  const assets = fileURLToPath(new URL('../dist/assets/', import.meta.url));
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  const gzipped = scripts.reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length, 0);
  console.log(`web client JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzipped in ${scripts.length} file(s)`);
  expect(gzipped).toBeLessThanOrEqual(BUDGET);
});
