// Test helpers: only the tests depend on this package (the root's devDependencies), so production code cannot
// import it by accident; a unit test (guard.test.ts) keeps it that way.
export * from './citus.ts';
export * from './cluster.ts';
export * from './databases.ts';
export * from './processes.ts';
export * from './realtime.ts';
