/**
 * Where a service's tables go on Citus, the distributed Postgres (docs/operations.md#upgrades): one map per service, beside its migrations, read by the catalog test (testkit `citusViolations`), the statement test and the
 * docs test that keeps the operator's commands in step with it.
 *
 * - `distributed`: holds one workspace's data; sharded by `workspace_id`, co-located with `workspace.actors`.
 * - `reference`: small, looked up by a global key (no workspace at hand); copied whole to every node.
 * - `local`: stays on the coordinator only (tables the next release drops).
 *
 * A schema with no workspace data (identity, realtime) is distributed whole instead (`citus_schema_distribute`).
 */
export type TablePlacement = 'distributed' | 'reference' | 'local';

export type SchemaPlacement =
  | {
      schema: string;
      distribution: 'by-workspace';
      tables: Readonly<Record<string, TablePlacement>>;
      /**
       * Constraints, unique indexes and triggers that Citus refuses, kept because the previous release relies on them
       * during a rolling upgrade (docs/operations.md#upgrades), and some of this release's statements too until they
       * name the workspace: a schema that keeps any cannot be distributed yet. A later release drops them.
       */
      untilNextRelease?: readonly string[];
    }
  | { schema: string; distribution: 'whole-schema' };

/** The column every distributed table is sharded by. */
export const DISTRIBUTION_COLUMN = 'workspace_id';

/** The table every distributed table is co-located with, so that a workspace's shards move together. */
export const COLOCATION_TABLE = 'workspace.actors';
