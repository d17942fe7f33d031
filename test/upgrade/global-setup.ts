import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { preparePreviousRelease, repoRoot } from './previous-release.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The previous release's tree, its dependencies installed (previous-release.ts). */
    previousRelease: string;
  }
}

const run = promisify(execFile);

/**
 * The mark the expand/contract check (expand-contract.test.ts) leaves in the previous release's tree, as JSON
 * `{ pids }` (its own process and its child's), before it puts this release's migrations there, and removes once the
 * tree's own are back.
 */
export const MIGRATIONS_REPLACED = '.migrations-replaced';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Puts the previous release's own migrations back in its tree (every `services/<name>/migrations`, exactly as its
 * commit has them) if the mark says they were replaced: by the check that replaced them, when it is done, and by the
 * global setup, after a run killed while they were replaced. A mark with a process still running (not the caller) is
 * another run's check on this machine: it is waited for (up to 10 minutes), not undone under it.
 */
export async function restorePreviousMigrations(tree: string): Promise<void> {
  const mark = path.join(tree, MIGRATIONS_REPLACED);
  for (let waited = 0; existsSync(mark); waited++) {
    const { pids } = JSON.parse(await readFile(mark, 'utf8')) as { pids: number[] };
    const running = pids.filter((pid) => pid !== process.pid && alive(pid));
    if (running.length === 0) break;
    if (waited === 600) throw new Error(`${mark}: processes ${running.join(', ')} still use it after 10 minutes`);
    await sleep(1_000);
  }
  if (!existsSync(mark)) return;
  const commit = (await readFile(path.join(tree, '.prepared'), 'utf8')).trim();
  const { stdout } = await run('git', ['ls-tree', '-r', '--name-only', commit, '--', 'services'], { cwd: repoRoot });
  const own = [...new Set(stdout.split('\n').flatMap((f) => /^services\/[^/]+\/migrations(?=\/)/.exec(f) ?? []))];
  if (own.length === 0) throw new Error(`${commit} has no services/<name>/migrations`);
  for (const service of await readdir(path.join(tree, 'services'))) {
    await rm(path.join(tree, 'services', service, 'migrations'), { recursive: true, force: true });
  }
  await run('sh', ['-c', `git archive ${commit} -- ${own.join(' ')} | tar -x -C "${tree}"`], { cwd: repoRoot });
  await rm(mark);
}

/** Made once for the project's files, which run one at a time: none may change the tree while another runs it. */
export default async function setup(project: TestProject): Promise<void> {
  const tree = await preparePreviousRelease((line) => console.log(line));
  await restorePreviousMigrations(tree);
  project.provide('previousRelease', tree);
}
