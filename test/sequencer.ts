import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Projects whose files run in the order of their paths, the same every run, rather than vitest's (failed, then slow,
 * first: it changes from run to run). The e2e project's files share one cluster, and what one leaves behind steers the
 * code paths of the next (a search walks the newest messages of every workspace), so the statements the services send,
 * which its statement test checks, depend on the order.
 */
const IN_PATH_ORDER = ['e2e'];

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
 * vitest's order (`BaseSequencer`), the files of `IN_PATH_ORDER` projects sorted by path within the places their project
 * had, and those of `LAST` moved to the end. A project whose files run one at a time (maxWorkers 1) runs them in this
 * order. vitest takes the sequencer from the root config only, not per project.
 */
export class LastFilesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const inPathOrder = (spec: TestSpecification) => IN_PATH_ORDER.includes(spec.project.name);
    const byPath = sorted.filter(inPathOrder).sort((a, b) => (a.moduleId < b.moduleId ? -1 : 1));
    const ordered = sorted.map((spec) => (inPathOrder(spec) ? byPath.shift()! : spec));
    const rank = (spec: TestSpecification) =>
      LAST.findIndex(({ project, file }) => spec.project.name === project && spec.moduleId.endsWith(`/${file}`));
    const rest = ordered.filter((spec) => rank(spec) < 0);
    const last = ordered.filter((spec) => rank(spec) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...rest, ...last];
  }
}
