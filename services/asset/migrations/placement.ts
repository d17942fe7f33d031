import type { SchemaPlacement } from '@wms/kit/placement';

/** Where asset's table goes on Citus (kit placement.ts). */
export const placement: SchemaPlacement = {
  schema: 'asset',
  distribution: 'by-workspace',
  tables: { assets: 'distributed' },
};
