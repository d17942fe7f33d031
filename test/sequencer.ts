import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run at the end of their project, in this order. The statement test reads what the files before it made
 * the services send; the fuzz test comes after it, since its random requests make statements that vary from run to run
 * (a page of members past a cursor in one run and not the next), and the statement test's baseline must not.
 */
const LAST = [
  { project: 'e2e', file: 'test/e2e/statements.test.ts' },
  { project: 'e2e', file: 'test/e2e/fuzz.test.ts' },
];

/**
 * vitest's order (`BaseSequencer`), with the files of `LAST` moved to the end. A project whose files run one at a time
 * (maxWorkers 1) runs them in this order. vitest takes the sequencer from the root config only, not per project.
 */
export class LastFilesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) =>
      LAST.findIndex(({ project, file }) => spec.project.name === project && spec.moduleId.endsWith(`/${file}`));
    const rest = sorted.filter((spec) => rank(spec) < 0);
    const last = sorted.filter((spec) => rank(spec) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...rest, ...last];
  }
}
