import type { SchemaPlacement } from '@wms/kit/placement';
import { placement as asset } from '../../services/asset/migrations/placement.ts';
import { placement as identity } from '../../services/identity/migrations/placement.ts';
import { placement as messaging } from '../../services/messaging/migrations/placement.ts';
import { placement as realtime } from '../../services/realtime/migrations/placement.ts';
import { placement as workspace } from '../../services/workspace/migrations/placement.ts';

/** Every service's placement map (kit placement.ts), workspace's first: it holds the table the others co-locate with. */
export const PLACEMENTS: readonly SchemaPlacement[] = [workspace, messaging, asset, identity, realtime];
