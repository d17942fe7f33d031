import type { TestProject } from 'vitest/node';
import { preparePreviousRelease } from './previous-release.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The previous release's tree, its dependencies installed (previous-release.ts). */
    previousRelease: string;
  }
}

/** Made once for the project's files, which run one at a time: none may change the tree while another runs it. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('previousRelease', await preparePreviousRelease((line) => console.log(line)));
}
