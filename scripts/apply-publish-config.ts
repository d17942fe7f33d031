// Usage: node --import tsx scripts/apply-publish-config.ts <folder written by `pnpm deploy`>
//
// A workspace package's `exports` point at its TypeScript sources, which development runs through tsx; its
// `publishConfig` says what a built copy exports (dist/). `pnpm pack` applies publishConfig, but `pnpm deploy` (10.x)
// copies each package.json as it is (pnpm/pnpm#6693), which would leave a deployed folder that needs a TypeScript
// loader. This applies publishConfig to the deployed package and to the workspace packages deployed with it.
import fs from 'node:fs';
import path from 'node:path';

// The manifest fields publishConfig may override, as `pnpm pack` has them.
const PUBLISHED_FIELDS = [
  'bin',
  'browser',
  'cpu',
  'es2015',
  'esnext',
  'exports',
  'imports',
  'libc',
  'main',
  'module',
  'os',
  'type',
  'types',
  'typesVersions',
  'typings',
  'umd:main',
  'unpkg',
];

type Manifest = Record<string, unknown> & { publishConfig?: Record<string, unknown> };

const deployDir = process.argv[2];
if (!deployDir) throw new Error('usage: apply-publish-config.ts <deploy folder>');

// A deploy installs each workspace dependency as a `file:` package: node_modules/.pnpm/<name>@file+<path>/node_modules/<name>.
const virtualStore = path.join(deployDir, 'node_modules', '.pnpm');
const workspacePackages = fs
  .readdirSync(virtualStore)
  .filter((entry) => entry.includes('@file+'))
  .map((entry) =>
    path.join(virtualStore, entry, 'node_modules', entry.slice(0, entry.indexOf('@file+')).replace('+', '/')),
  );

for (const dir of [deployDir, ...workspacePackages]) {
  const file = path.join(dir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  const { publishConfig } = manifest;
  if (!publishConfig) continue;
  for (const field of PUBLISHED_FIELDS) {
    if (!(field in publishConfig)) continue;
    manifest[field] = publishConfig[field];
    delete publishConfig[field];
  }
  if (Object.keys(publishConfig).length === 0) delete manifest.publishConfig;
  // A new file renamed over the old one: deploy hard-links these files to the workspace's own, which must not change.
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  console.log(`${path.relative(deployDir, file) || 'package.json'}: applied publishConfig`);
}
