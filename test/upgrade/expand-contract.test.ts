import { spawn } from 'node:child_process';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_REPLACED, restorePreviousMigrations } from './global-setup.ts';
import { previousReleaseCommit, repoRoot } from './previous-release.ts';

// The expand/contract check (docs/operations.md#upgrades): during a rolling upgrade the previous release's pods run on
// the schema this release's migrations made, so its statements must all still work there. It runs the previous
// release's own integration tests of the services that own data, whose stores send that release's SQL, on databases
// migrated by this release's migrations: a migration that drops, renames or retypes what that code reads or writes
// fails them. What those tests do not run, it cannot see.

/** The services whose migrations this check puts in the previous release's tree: every one with a schema of its own. */
async function dataOwners(tree: string): Promise<string[]> {
  const services = new Set([
    ...(await readdir(path.join(repoRoot, 'services'))),
    ...(await readdir(path.join(tree, 'services'))),
  ]);
  return [...services]
    .filter((s) => [repoRoot, tree].some((root) => existsSync(path.join(root, 'services', s, 'migrations'))))
    .sort();
}

/** The processes that use this release's migrations in the tree (global-setup.ts), written whole or not at all. */
function mark(tree: string, pids: number[]): void {
  writeFileSync(path.join(tree, `${MIGRATIONS_REPLACED}.tmp`), JSON.stringify({ pids }));
  renameSync(path.join(tree, `${MIGRATIONS_REPLACED}.tmp`), path.join(tree, MIGRATIONS_REPLACED));
}

/**
 * Replaces each data owner's `migrations/` in the previous release's tree with this release's, whole (a migration this
 * release removed is gone there too). A migration's imports from outside its folder (`../src/...`) and of kit
 * (`@wms/kit/...`, whose migration helpers this release may have added to) point to this repository's files, so it
 * runs with the code of its own release, as this release's migration Job does.
 */
async function replaceMigrations(tree: string, services: string[]): Promise<void> {
  await restorePreviousMigrations(tree);
  // Marked first, so that a run killed from here on leaves the tree to be restored by the next global setup.
  mark(tree, [process.pid]);
  for (const service of services) {
    const [ours, theirs] = [repoRoot, tree].map((root) => path.join(root, 'services', service, 'migrations'));
    await rm(theirs!, { recursive: true, force: true });
    if (!existsSync(ours!) || !existsSync(path.dirname(theirs!))) continue;
    await cp(ours!, theirs!, { recursive: true });
    for (const file of await readdir(theirs!)) {
      const code = await readFile(path.join(theirs!, file), 'utf8');
      const pointed = code
        .replace(/(from\s+|import\s*\(?\s*)'(\.\.\/[^']+)'/g, (_, keyword: string, spec: string) => {
          return `${keyword}'${path.resolve(ours!, spec)}'`;
        })
        .replace(/(from\s+|import\s*\(?\s*)'@wms\/kit\/([^']+)'/g, (_, keyword: string, module: string) => {
          return `${keyword}'${path.join(repoRoot, 'services/kit/src', `${module}.ts`)}'`;
        });
      if (pointed !== code) await writeFile(path.join(theirs!, file), pointed);
    }
  }
}

/**
 * The previous release's tests that stand in for the release before it, whose writes this release no longer takes (its
 * migrations contract what that release relied on): left out of the check, each with why. They name the pinned commit,
 * so that moving the pin on makes someone review them (the check fails until they do).
 */
const LEFT_OUT: { commit: string; tests: Array<[name: string, why: string]> } = {
  commit: 'a677eb80a85f6cb08043acce7af46c914a55ebb3',
  tests: [
    [
      'reads a message without children (the previous release edited it) from its body',
      "edits a row as the release before it did, relying on that release's rich-messages trigger, which this one drops",
    ],
    [
      'hides a private conversation and everything in it from a non-member, and shows it to a member',
      'its fixture upserts a thread read naming the old primary key (ON CONFLICT (actor_id, root_id)), which this ' +
        "release swaps for one led by the workspace; that release's stores name no key",
    ],
  ],
};

/** A `--testNamePattern` that every test name matches but those of LEFT_OUT. */
function leftOutPattern(): string[] {
  if (LEFT_OUT.tests.length === 0) return [];
  if (LEFT_OUT.commit !== previousReleaseCommit())
    throw new Error(`LEFT_OUT names ${LEFT_OUT.commit}, not the previous release: review the tests it leaves out`);
  const escaped = LEFT_OUT.tests.map(([name]) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return ['--testNamePattern', `^(?!.*(?:${escaped.join('|')}))`];
}

interface Run {
  /** The exit code, or the signal that stopped it. */
  code: number | string;
  output: string;
  failures: Failure[];
  seconds: number;
}

/** The previous release's own vitest, in its tree: its integration tests of these services. */
async function runPreviousTests(tree: string, services: string[]): Promise<Run> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'wms-expand-contract-'));
  const report = path.join(scratch, 'report.json');
  const tested = services.filter((s) => existsSync(path.join(tree, 'services', s, 'test')));
  const args = ['run', '--project', 'integration', ...tested.map((s) => `services/${s}/test/`)];
  // Each service's migrations test runs its own release's migrations from a given one on and asserts exactly which
  // ran (messaging's and realtime's `migrations.int.test.ts`): any migration this release adds fails it, whatever it
  // does. They test migrations, not that release's statements, and this release's own copies run in its integration
  // project.
  args.push('--exclude', '**/test/migrations.int.test.ts', ...leftOutPattern());
  // A test that failed is tried once more: what a schema breaks fails again, and a load-sensitive test of that release
  // (its presence test of 1,000 actors, which this release has since made to try again on a 503) gets a second chance.
  args.push('--retry', '1');
  args.push('--reporter', 'default', '--reporter', 'json', '--outputFile.json', report);
  // Not this run's vitest variables: the child is a vitest run of its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const started = Date.now();
  const child = spawn(path.join(tree, 'node_modules/.bin/vitest'), args, {
    cwd: tree,
    env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A run of this file killed alone would leave its child running on the replaced migrations: the mark names both.
  if (child.pid !== undefined) mark(tree, [process.pid, child.pid]);
  const ended = new Promise<number | string>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Stopped before this test's own timeout, so that the tree is restored in time.
  const timers = [setTimeout(() => child.kill('SIGTERM'), 560_000), setTimeout(() => child.kill('SIGKILL'), 580_000)];
  try {
    const code = await ended;
    return { code, output, failures: await failuresIn(report, tree), seconds: (Date.now() - started) / 1000 };
  } finally {
    timers.forEach(clearTimeout);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A failure's error on one line: its message without the stack, a long statement's middle left out. */
function briefly(failure: string): string {
  const message = failure
    .split(/\n\s+(?:at |❯ )/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
  return message.length <= 300 ? message : `${message.slice(0, 80)} … ${message.slice(-200)}`;
}

interface Failure {
  /** `<file> > <test's full name>`, or the file alone when it failed as a whole. */
  test: string;
  error: string;
}

async function failuresIn(report: string, tree: string): Promise<Failure[]> {
  if (!existsSync(report)) return [];
  const { testResults } = JSON.parse(await readFile(report, 'utf8')) as {
    testResults: Array<{
      name: string;
      message?: string;
      assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
    }>;
  };
  return testResults.flatMap((file) => {
    const name = path.relative(tree, file.name);
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    // A file that failed as a whole (its import or a beforeAll) has a message and no failed test.
    if (failed.length === 0) return file.message ? [{ test: name, error: briefly(file.message) }] : [];
    return failed.map((t) => ({ test: `${name} > ${t.fullName}`, error: briefly(t.failureMessages[0] ?? '') }));
  });
}

/** What the assertion says when the run failed: the failed tests, their errors once each, the run's last lines. */
function explain(result: Run): string {
  const { failures } = result;
  const errors = new Map<string, number>();
  for (const { error } of failures) errors.set(error, (errors.get(error) ?? 0) + 1);
  const more = (shown: number, all: number) => (all > shown ? [`  and ${all - shown} more`] : []);
  return [
    `The previous release's (${previousReleaseCommit()}) integration tests failed on this release's migrations ` +
      `(exit ${result.code}): a migration drops, renames or changes what that release still reads or writes ` +
      `(docs/operations.md#upgrades).`,
    `Failed tests (${failures.length}):`,
    ...failures.slice(0, 15).map((f) => `  ${f.test}`),
    ...more(15, failures.length),
    `Their errors (${errors.size} different):`,
    ...[...errors]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([error, n]) => `  ${n}× ${error}`),
    ...more(5, errors.size),
    `The run's last lines:`,
    ...result.output
      .trimEnd()
      .split('\n')
      .filter((line) => !line.startsWith('JSON report written'))
      .slice(-8),
  ].join('\n');
}

describe('expand/contract', () => {
  // The previous release's tests take 30 to 40 s alone, over two minutes on a machine busy with other runs, and a
  // retried test adds its time again: more than the project's 300 s.
  it("passes the previous release's integration tests on the schema this release's migrations make", async () => {
    const tree = inject('previousRelease');
    const services = await dataOwners(tree);
    let result: Run;
    try {
      await replaceMigrations(tree, services);
      result = await runPreviousTests(tree, services);
    } finally {
      await restorePreviousMigrations(tree);
    }
    console.log(`the previous release's tests of ${services.join(', ')}: ${result.seconds.toFixed(0)} s`);
    expect(result.code, explain(result)).toBe(0);
  }, 600_000);
});
