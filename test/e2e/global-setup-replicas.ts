import type { TestProject } from 'vitest/node';
import { provideCluster } from './global-setup.ts';

/** The e2e suite's core scenarios again, on a cluster with two processes of every role (issue 24). */
export default (project: TestProject) => provideCluster(project, { replicas: 2 });
