import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The release before this one, as its source tree with its dependencies installed, for the tests that run it beside
// (or against the schema of) this one: the upgrade test and the expand/contract check (docs/operations.md#upgrades).

const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The previous release's commit, as `previous-release.txt` names it (moved on at each release). */
export function previousReleaseCommit(): string {
  return readFileSync(path.join(repoRoot, 'test/upgrade/previous-release.txt'), 'utf8').trim();
}

/**
 * `.wms/previous-release/<commit>`: the commit's files (`git archive`, so it needs no worktree registered in this
 * clone) and its dependencies (`pnpm install --frozen-lockfile`, from the store where it can). Made once and kept; a
 * tree an interrupted run left without its `.prepared` mark is made again.
 */
export async function preparePreviousRelease(log: (line: string) => void = () => {}): Promise<string> {
  const { stdout } = await run('git', ['rev-parse', '--verify', `${previousReleaseCommit()}^{commit}`], {
    cwd: repoRoot,
  });
  const commit = stdout.trim();
  const dir = path.join(repoRoot, '.wms', 'previous-release', commit);
  if (existsSync(path.join(dir, '.prepared'))) return dir;
  log(`preparing the previous release ${commit.slice(0, 12)} in ${dir}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await run('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { cwd: repoRoot });
  await run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], {
    cwd: dir,
    env: { ...process.env, CI: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  await writeFile(path.join(dir, '.prepared'), `${commit}\n`);
  return dir;
}
