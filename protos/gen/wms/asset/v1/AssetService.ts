// Original file: asset/v1/asset.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Asset as _wms_common_v1_Asset, Asset__Output as _wms_common_v1_Asset__Output } from '../../../wms/common/v1/Asset.ts';
import type { AssetList as _wms_asset_v1_AssetList, AssetList__Output as _wms_asset_v1_AssetList__Output } from '../../../wms/asset/v1/AssetList.ts';
import type { AssetRef as _wms_asset_v1_AssetRef, AssetRef__Output as _wms_asset_v1_AssetRef__Output } from '../../../wms/asset/v1/AssetRef.ts';
import type { AttachAssetsRequest as _wms_asset_v1_AttachAssetsRequest, AttachAssetsRequest__Output as _wms_asset_v1_AttachAssetsRequest__Output } from '../../../wms/asset/v1/AttachAssetsRequest.ts';
import type { CreateAssetRequest as _wms_asset_v1_CreateAssetRequest, CreateAssetRequest__Output as _wms_asset_v1_CreateAssetRequest__Output } from '../../../wms/asset/v1/CreateAssetRequest.ts';
import type { Download as _wms_common_v1_Download, Download__Output as _wms_common_v1_Download__Output } from '../../../wms/common/v1/Download.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from '../../../wms/common/v1/Empty.ts';
import type { GetAssetsByIdsRequest as _wms_asset_v1_GetAssetsByIdsRequest, GetAssetsByIdsRequest__Output as _wms_asset_v1_GetAssetsByIdsRequest__Output } from '../../../wms/asset/v1/GetAssetsByIdsRequest.ts';
import type { MessageAssetsRequest as _wms_asset_v1_MessageAssetsRequest, MessageAssetsRequest__Output as _wms_asset_v1_MessageAssetsRequest__Output } from '../../../wms/asset/v1/MessageAssetsRequest.ts';
import type { PurgeProgress as _wms_common_v1_PurgeProgress, PurgeProgress__Output as _wms_common_v1_PurgeProgress__Output } from '../../../wms/common/v1/PurgeProgress.ts';
import type { UploadChunk as _wms_asset_v1_UploadChunk, UploadChunk__Output as _wms_asset_v1_UploadChunk__Output } from '../../../wms/asset/v1/UploadChunk.ts';
import type { WorkspacePurge as _wms_common_v1_WorkspacePurge, WorkspacePurge__Output as _wms_common_v1_WorkspacePurge__Output } from '../../../wms/common/v1/WorkspacePurge.ts';

export interface AssetServiceClient extends grpc.Client {
  AttachAssets(argument: _wms_asset_v1_AttachAssetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  AttachAssets(argument: _wms_asset_v1_AttachAssetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  AttachAssets(argument: _wms_asset_v1_AttachAssetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  AttachAssets(argument: _wms_asset_v1_AttachAssetsRequest, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  attachAssets(argument: _wms_asset_v1_AttachAssetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  attachAssets(argument: _wms_asset_v1_AttachAssetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  attachAssets(argument: _wms_asset_v1_AttachAssetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  attachAssets(argument: _wms_asset_v1_AttachAssetsRequest, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  
  CreateAsset(argument: _wms_asset_v1_CreateAssetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  CreateAsset(argument: _wms_asset_v1_CreateAssetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  CreateAsset(argument: _wms_asset_v1_CreateAssetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  CreateAsset(argument: _wms_asset_v1_CreateAssetRequest, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  createAsset(argument: _wms_asset_v1_CreateAssetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  createAsset(argument: _wms_asset_v1_CreateAssetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  createAsset(argument: _wms_asset_v1_CreateAssetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  createAsset(argument: _wms_asset_v1_CreateAssetRequest, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientUnaryCall;
  
  DetachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DetachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DetachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DetachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  detachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  detachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  detachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  detachMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  GetAssetDownload(argument: _wms_asset_v1_AssetRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetAssetDownload(argument: _wms_asset_v1_AssetRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetAssetDownload(argument: _wms_asset_v1_AssetRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetAssetDownload(argument: _wms_asset_v1_AssetRef, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getAssetDownload(argument: _wms_asset_v1_AssetRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getAssetDownload(argument: _wms_asset_v1_AssetRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getAssetDownload(argument: _wms_asset_v1_AssetRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getAssetDownload(argument: _wms_asset_v1_AssetRef, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  
  GetAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  GetAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  GetAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  GetAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  getAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  getAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  getAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  getAssetsByIds(argument: _wms_asset_v1_GetAssetsByIdsRequest, callback: grpc.requestCallback<_wms_asset_v1_AssetList__Output>): grpc.ClientUnaryCall;
  
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  
  ReleaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseMessageAssets(argument: _wms_asset_v1_MessageAssetsRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  UploadAssetContent(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  UploadAssetContent(metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  UploadAssetContent(options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  UploadAssetContent(callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  uploadAssetContent(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  uploadAssetContent(metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  uploadAssetContent(options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  uploadAssetContent(callback: grpc.requestCallback<_wms_common_v1_Asset__Output>): grpc.ClientWritableStream<_wms_asset_v1_UploadChunk>;
  
}

export interface AssetServiceHandlers extends grpc.UntypedServiceImplementation {
  AttachAssets: grpc.handleUnaryCall<_wms_asset_v1_AttachAssetsRequest__Output, _wms_asset_v1_AssetList>;
  
  CreateAsset: grpc.handleUnaryCall<_wms_asset_v1_CreateAssetRequest__Output, _wms_common_v1_Asset>;
  
  DetachMessageAssets: grpc.handleUnaryCall<_wms_asset_v1_MessageAssetsRequest__Output, _wms_common_v1_Empty>;
  
  GetAssetDownload: grpc.handleUnaryCall<_wms_asset_v1_AssetRef__Output, _wms_common_v1_Download>;
  
  GetAssetsByIds: grpc.handleUnaryCall<_wms_asset_v1_GetAssetsByIdsRequest__Output, _wms_asset_v1_AssetList>;
  
  PurgeWorkspace: grpc.handleUnaryCall<_wms_common_v1_WorkspacePurge__Output, _wms_common_v1_PurgeProgress>;
  
  ReleaseMessageAssets: grpc.handleUnaryCall<_wms_asset_v1_MessageAssetsRequest__Output, _wms_common_v1_Empty>;
  
  UploadAssetContent: grpc.handleClientStreamingCall<_wms_asset_v1_UploadChunk__Output, _wms_common_v1_Asset>;
  
}

export interface AssetServiceDefinition extends grpc.ServiceDefinition {
  AttachAssets: MethodDefinition<_wms_asset_v1_AttachAssetsRequest, _wms_asset_v1_AssetList, _wms_asset_v1_AttachAssetsRequest__Output, _wms_asset_v1_AssetList__Output>
  CreateAsset: MethodDefinition<_wms_asset_v1_CreateAssetRequest, _wms_common_v1_Asset, _wms_asset_v1_CreateAssetRequest__Output, _wms_common_v1_Asset__Output>
  DetachMessageAssets: MethodDefinition<_wms_asset_v1_MessageAssetsRequest, _wms_common_v1_Empty, _wms_asset_v1_MessageAssetsRequest__Output, _wms_common_v1_Empty__Output>
  GetAssetDownload: MethodDefinition<_wms_asset_v1_AssetRef, _wms_common_v1_Download, _wms_asset_v1_AssetRef__Output, _wms_common_v1_Download__Output>
  GetAssetsByIds: MethodDefinition<_wms_asset_v1_GetAssetsByIdsRequest, _wms_asset_v1_AssetList, _wms_asset_v1_GetAssetsByIdsRequest__Output, _wms_asset_v1_AssetList__Output>
  PurgeWorkspace: MethodDefinition<_wms_common_v1_WorkspacePurge, _wms_common_v1_PurgeProgress, _wms_common_v1_WorkspacePurge__Output, _wms_common_v1_PurgeProgress__Output>
  ReleaseMessageAssets: MethodDefinition<_wms_asset_v1_MessageAssetsRequest, _wms_common_v1_Empty, _wms_asset_v1_MessageAssetsRequest__Output, _wms_common_v1_Empty__Output>
  UploadAssetContent: MethodDefinition<_wms_asset_v1_UploadChunk, _wms_common_v1_Asset, _wms_asset_v1_UploadChunk__Output, _wms_common_v1_Asset__Output>
}
