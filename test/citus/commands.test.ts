import { COLOCATION_TABLE } from '@wms/kit/placement';
import { citusCommands } from '@wms/testkit';
import { expect, it } from 'vitest';
import { PLACEMENTS } from './placements.ts';

// The commands an operator runs on Citus come from the placement maps (testkit citusCommands), in an order Citus takes.

it('places reference tables first, then the co-location table, its co-located tables, and the whole schemas last', () => {
  const commands = citusCommands(PLACEMENTS);
  const kinds = commands.map((command) => /^SELECT (\w+)\(/.exec(command)![1]);
  const firstDistributed = kinds.indexOf('create_distributed_table');
  expect(kinds.slice(0, firstDistributed).every((kind) => kind === 'create_reference_table')).toBe(true);
  expect(commands[firstDistributed]).toBe(`SELECT create_distributed_table('${COLOCATION_TABLE}', 'workspace_id');`);
  expect(kinds.slice(-2)).toEqual(['citus_schema_distribute', 'citus_schema_distribute']);
  // Every table once, each by its map's placement; local tables get no command.
  for (const map of PLACEMENTS) {
    if (map.distribution === 'whole-schema') {
      expect(commands).toContain(`SELECT citus_schema_distribute('${map.schema}');`);
      continue;
    }
    for (const [table, placement] of Object.entries(map.tables)) {
      const named = commands.filter((command) => command.includes(`('${map.schema}.${table}'`));
      expect(named.length, `${map.schema}.${table}`).toBe(placement === 'local' ? 0 : 1);
    }
  }
  // A distributed table comes after every table its keys reference (messages after channels, children after both).
  const at = (table: string) => commands.findIndex((command) => command.includes(`('${table}'`));
  expect(at('messaging.channels')).toBeLessThan(at('messaging.messages'));
  expect(at('messaging.messages')).toBeLessThan(at('messaging.reactions'));
  expect(at('workspace.workspaces')).toBeLessThan(at('workspace.actors'));
});
