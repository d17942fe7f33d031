import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AssetList as _wms_asset_v1_AssetList, AssetList__Output as _wms_asset_v1_AssetList__Output } from './wms/asset/v1/AssetList.ts';
import type { AssetRef as _wms_asset_v1_AssetRef, AssetRef__Output as _wms_asset_v1_AssetRef__Output } from './wms/asset/v1/AssetRef.ts';
import type { AssetServiceClient as _wms_asset_v1_AssetServiceClient, AssetServiceDefinition as _wms_asset_v1_AssetServiceDefinition } from './wms/asset/v1/AssetService.ts';
import type { AttachAssetsRequest as _wms_asset_v1_AttachAssetsRequest, AttachAssetsRequest__Output as _wms_asset_v1_AttachAssetsRequest__Output } from './wms/asset/v1/AttachAssetsRequest.ts';
import type { CreateAssetRequest as _wms_asset_v1_CreateAssetRequest, CreateAssetRequest__Output as _wms_asset_v1_CreateAssetRequest__Output } from './wms/asset/v1/CreateAssetRequest.ts';
import type { GetAssetsByIdsRequest as _wms_asset_v1_GetAssetsByIdsRequest, GetAssetsByIdsRequest__Output as _wms_asset_v1_GetAssetsByIdsRequest__Output } from './wms/asset/v1/GetAssetsByIdsRequest.ts';
import type { MessageAssetsRequest as _wms_asset_v1_MessageAssetsRequest, MessageAssetsRequest__Output as _wms_asset_v1_MessageAssetsRequest__Output } from './wms/asset/v1/MessageAssetsRequest.ts';
import type { UploadChunk as _wms_asset_v1_UploadChunk, UploadChunk__Output as _wms_asset_v1_UploadChunk__Output } from './wms/asset/v1/UploadChunk.ts';
import type { Asset as _wms_common_v1_Asset, Asset__Output as _wms_common_v1_Asset__Output } from './wms/common/v1/Asset.ts';
import type { AuthResponse as _wms_common_v1_AuthResponse, AuthResponse__Output as _wms_common_v1_AuthResponse__Output } from './wms/common/v1/AuthResponse.ts';
import type { Download as _wms_common_v1_Download, Download__Output as _wms_common_v1_Download__Output } from './wms/common/v1/Download.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from './wms/common/v1/Empty.ts';
import type { JsonBody as _wms_common_v1_JsonBody, JsonBody__Output as _wms_common_v1_JsonBody__Output } from './wms/common/v1/JsonBody.ts';
import type { NullableString as _wms_common_v1_NullableString, NullableString__Output as _wms_common_v1_NullableString__Output } from './wms/common/v1/NullableString.ts';
import type { PurgeProgress as _wms_common_v1_PurgeProgress, PurgeProgress__Output as _wms_common_v1_PurgeProgress__Output } from './wms/common/v1/PurgeProgress.ts';
import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from './wms/common/v1/User.ts';
import type { WorkspacePurge as _wms_common_v1_WorkspacePurge, WorkspacePurge__Output as _wms_common_v1_WorkspacePurge__Output } from './wms/common/v1/WorkspacePurge.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  wms: {
    asset: {
      v1: {
        AssetList: MessageTypeDefinition<_wms_asset_v1_AssetList, _wms_asset_v1_AssetList__Output>
        AssetRef: MessageTypeDefinition<_wms_asset_v1_AssetRef, _wms_asset_v1_AssetRef__Output>
        AssetService: SubtypeConstructor<typeof grpc.Client, _wms_asset_v1_AssetServiceClient> & { service: _wms_asset_v1_AssetServiceDefinition }
        AttachAssetsRequest: MessageTypeDefinition<_wms_asset_v1_AttachAssetsRequest, _wms_asset_v1_AttachAssetsRequest__Output>
        CreateAssetRequest: MessageTypeDefinition<_wms_asset_v1_CreateAssetRequest, _wms_asset_v1_CreateAssetRequest__Output>
        GetAssetsByIdsRequest: MessageTypeDefinition<_wms_asset_v1_GetAssetsByIdsRequest, _wms_asset_v1_GetAssetsByIdsRequest__Output>
        MessageAssetsRequest: MessageTypeDefinition<_wms_asset_v1_MessageAssetsRequest, _wms_asset_v1_MessageAssetsRequest__Output>
        UploadChunk: MessageTypeDefinition<_wms_asset_v1_UploadChunk, _wms_asset_v1_UploadChunk__Output>
      }
    }
    common: {
      v1: {
        Asset: MessageTypeDefinition<_wms_common_v1_Asset, _wms_common_v1_Asset__Output>
        AuthResponse: MessageTypeDefinition<_wms_common_v1_AuthResponse, _wms_common_v1_AuthResponse__Output>
        Download: MessageTypeDefinition<_wms_common_v1_Download, _wms_common_v1_Download__Output>
        Empty: MessageTypeDefinition<_wms_common_v1_Empty, _wms_common_v1_Empty__Output>
        JsonBody: MessageTypeDefinition<_wms_common_v1_JsonBody, _wms_common_v1_JsonBody__Output>
        NullableString: MessageTypeDefinition<_wms_common_v1_NullableString, _wms_common_v1_NullableString__Output>
        PurgeProgress: MessageTypeDefinition<_wms_common_v1_PurgeProgress, _wms_common_v1_PurgeProgress__Output>
        User: MessageTypeDefinition<_wms_common_v1_User, _wms_common_v1_User__Output>
        WorkspacePurge: MessageTypeDefinition<_wms_common_v1_WorkspacePurge, _wms_common_v1_WorkspacePurge__Output>
      }
    }
  }
}

