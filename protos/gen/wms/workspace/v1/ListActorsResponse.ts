// Original file: workspace/v1/workspace.proto

import type { Actor as _wms_workspace_v1_Actor, Actor__Output as _wms_workspace_v1_Actor__Output } from '../../../wms/workspace/v1/Actor.ts';

export interface ListActorsResponse {
  'actors'?: (_wms_workspace_v1_Actor)[];
}

export interface ListActorsResponse__Output {
  'actors': (_wms_workspace_v1_Actor__Output)[];
}
