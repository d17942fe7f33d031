// Original file: asset/v1/asset.proto

import type { AssetRef as _wms_asset_v1_AssetRef, AssetRef__Output as _wms_asset_v1_AssetRef__Output } from '../../../wms/asset/v1/AssetRef.ts';

export interface UploadChunk {
  'asset'?: (_wms_asset_v1_AssetRef | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "asset"|"data";
}

export interface UploadChunk__Output {
  'asset'?: (_wms_asset_v1_AssetRef__Output | null);
  'data'?: (Buffer);
  'part'?: "asset"|"data";
}
