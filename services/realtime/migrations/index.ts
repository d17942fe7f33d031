import type { Migration } from '@wms/kit/db';
import * as realtime from './20261201000000_realtime.ts';
import * as deliveryMark from './20261203000000_delivery_mark.ts';
import * as presenceMissing from './20261212000000_presence_missing.ts';

/** Every migration of the realtime schema, in order. */
export const migrations: Migration[] = [
  { name: '20261201000000_realtime', ...realtime },
  { name: '20261203000000_delivery_mark', ...deliveryMark },
  { name: '20261212000000_presence_missing', ...presenceMissing },
];
