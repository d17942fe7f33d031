import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The workspace's packages (pnpm-workspace.yaml), as pnpm finds them: the folders matched that hold a package.json. */
const packageDirs = readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8')
  .split('\n')
  .flatMap((line) => /^\s+-\s+(\S+)/.exec(line)?.[1] ?? [])
  .flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(path.join(root, pattern.slice(0, -2))).map((d) => `${pattern.slice(0, -2)}/${d}`)
      : [pattern],
  )
  .filter((dir) => existsSync(path.join(root, dir, 'package.json')));

/** Production sources: every package's `src` and `migrations` but the tests' own packages, minus tests. */
function productionSources(): string[] {
  return packageDirs
    .filter((dir) => dir !== 'testkit' && dir !== 'test')
    .flatMap((dir) =>
      ['src', 'migrations'].flatMap((sub) => {
        const full = path.join(root, dir, sub);
        try {
          return readdirSync(full, { recursive: true, encoding: 'utf8' })
            .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
            .map((f) => path.join(full, f));
        } catch {
          return [];
        }
      }),
    );
}

describe('@wms/testkit', () => {
  it('is imported by no production source', () => {
    const sources = productionSources();
    expect(sources.length).toBeGreaterThan(50);
    const offenders = sources
      .filter((file) => readFileSync(file, 'utf8').includes('@wms/testkit'))
      .map((f) => path.relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('is a dependency of no package, only a devDependency of the root', () => {
    const manifests = packageDirs.map((dir) => path.join(dir, 'package.json'));
    const depending = manifests.filter(
      (f) => '@wms/testkit' in (JSON.parse(readFileSync(path.join(root, f), 'utf8')).dependencies ?? {}),
    );
    expect(depending).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies).toHaveProperty(
      '@wms/testkit',
    );
  });
});

/** One service's production sources, by path relative to its folder. */
function serviceSources(): Array<{ file: string; text: string }> {
  return productionSources()
    .filter((f) => /\/services\/(?!kit\/)[^/]+\/src\//.test(f))
    .map((f) => ({ file: path.relative(root, f), text: readFileSync(f, 'utf8') }));
}

const imports = (text: string, pattern: RegExp) =>
  [...text.matchAll(/^import\s[^;]*?from '([^']+)'/gms)].some((m) => pattern.test(m[1]!));

describe('the service template (STYLE.md)', () => {
  it('keeps knex, BullMQ and the proto types out of domain services and domain rules', () => {
    const layered = serviceSources().filter(
      ({ file }) => file.endsWith('.service.ts') || file.includes('/src/domain/'),
    );
    expect(layered.length).toBeGreaterThan(10);
    const offenders = layered
      .filter(({ text }) => imports(text, /^(knex|bullmq|@wms\/kit\/(db|queues))$/))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
    const domainOffenders = layered
      .filter(({ file }) => file.includes('/src/domain/'))
      .filter(({ text }) => imports(text, /^(@grpc\/|@wms\/protos|express)/))
      .map(({ file }) => file);
    expect(domainOffenders).toEqual([]);
  });

  it('writes SQL only in stores (and migrations): no other service file imports knex or runs raw SQL', () => {
    const offenders = serviceSources()
      .filter(({ file }) => !file.includes('/src/store/') && !/\/src\/(wiring|worker|main)\.ts$/.test(file))
      .filter(({ text }) => imports(text, /^knex$/) || /\.raw\(/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('reads process.env only in config modules', () => {
    const sources = productionSources()
      .filter((f) => /\/(services|gateway)\//.test(f) && !f.endsWith('/config.ts'))
      .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')));
    expect(sources.map((f) => path.relative(root, f))).toEqual([]);
  });

  it('starts the product from nothing under test/', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(manifest.scripts.start).toMatch(/local-cluster\/src\/start\.ts/);
    const offenders = productionSources().filter((f) =>
      /from '(\.\.\/)+test\/|from '@wms\/test'/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});

/** The relative imports of a source file (type-only ones too), resolved to files. */
const relativeImports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from '(\.{1,2}\/[^']+)'/gms)].map((m) =>
    path.resolve(path.dirname(file), m[1]!),
  );

describe('imports', () => {
  it('go one way: no production source reaches itself through relative imports, type-only ones included', () => {
    const sources = productionSources().filter((f) => f.includes(`${path.sep}src${path.sep}`));
    const edges = new Map(sources.map((f) => [f, relativeImports(f)]));
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, trail: string[]) => {
      const at = trail.indexOf(file);
      if (at >= 0) return void circles.push([...trail.slice(at), file].map((f) => path.relative(root, f)).join(' > '));
      if (done.has(file)) return;
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of sources) visit(file, []);
    expect(circles).toEqual([]);
  });
});
