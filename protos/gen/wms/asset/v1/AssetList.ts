// Original file: asset/v1/asset.proto

import type { Asset as _wms_common_v1_Asset, Asset__Output as _wms_common_v1_Asset__Output } from '../../../wms/common/v1/Asset.ts';

export interface AssetList {
  'assets'?: (_wms_common_v1_Asset)[];
}

export interface AssetList__Output {
  'assets': (_wms_common_v1_Asset__Output)[];
}
