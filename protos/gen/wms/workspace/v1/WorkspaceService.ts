// Original file: workspace/v1/workspace.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Actor as _wms_workspace_v1_Actor, Actor__Output as _wms_workspace_v1_Actor__Output } from '../../../wms/workspace/v1/Actor.ts';
import type { ActorAvatarRequest as _wms_workspace_v1_ActorAvatarRequest, ActorAvatarRequest__Output as _wms_workspace_v1_ActorAvatarRequest__Output } from '../../../wms/workspace/v1/ActorAvatarRequest.ts';
import type { AddWorkspaceUserRequest as _wms_workspace_v1_AddWorkspaceUserRequest, AddWorkspaceUserRequest__Output as _wms_workspace_v1_AddWorkspaceUserRequest__Output } from '../../../wms/workspace/v1/AddWorkspaceUserRequest.ts';
import type { AuthResponse as _wms_common_v1_AuthResponse, AuthResponse__Output as _wms_common_v1_AuthResponse__Output } from '../../../wms/common/v1/AuthResponse.ts';
import type { ConversationTokensRequest as _wms_workspace_v1_ConversationTokensRequest, ConversationTokensRequest__Output as _wms_workspace_v1_ConversationTokensRequest__Output } from '../../../wms/workspace/v1/ConversationTokensRequest.ts';
import type { CreateAgentActorRequest as _wms_workspace_v1_CreateAgentActorRequest, CreateAgentActorRequest__Output as _wms_workspace_v1_CreateAgentActorRequest__Output } from '../../../wms/workspace/v1/CreateAgentActorRequest.ts';
import type { CreateInvitationRequest as _wms_workspace_v1_CreateInvitationRequest, CreateInvitationRequest__Output as _wms_workspace_v1_CreateInvitationRequest__Output } from '../../../wms/workspace/v1/CreateInvitationRequest.ts';
import type { CreateTokenRequest as _wms_workspace_v1_CreateTokenRequest, CreateTokenRequest__Output as _wms_workspace_v1_CreateTokenRequest__Output } from '../../../wms/workspace/v1/CreateTokenRequest.ts';
import type { CreateWorkspaceRequest as _wms_workspace_v1_CreateWorkspaceRequest, CreateWorkspaceRequest__Output as _wms_workspace_v1_CreateWorkspaceRequest__Output } from '../../../wms/workspace/v1/CreateWorkspaceRequest.ts';
import type { Download as _wms_common_v1_Download, Download__Output as _wms_common_v1_Download__Output } from '../../../wms/common/v1/Download.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from '../../../wms/common/v1/Empty.ts';
import type { GetActorRequest as _wms_workspace_v1_GetActorRequest, GetActorRequest__Output as _wms_workspace_v1_GetActorRequest__Output } from '../../../wms/workspace/v1/GetActorRequest.ts';
import type { GetActorsByIdsRequest as _wms_workspace_v1_GetActorsByIdsRequest, GetActorsByIdsRequest__Output as _wms_workspace_v1_GetActorsByIdsRequest__Output } from '../../../wms/workspace/v1/GetActorsByIdsRequest.ts';
import type { GetAvatarRequest as _wms_workspace_v1_GetAvatarRequest, GetAvatarRequest__Output as _wms_workspace_v1_GetAvatarRequest__Output } from '../../../wms/workspace/v1/GetAvatarRequest.ts';
import type { InvitationPage as _wms_workspace_v1_InvitationPage, InvitationPage__Output as _wms_workspace_v1_InvitationPage__Output } from '../../../wms/workspace/v1/InvitationPage.ts';
import type { InvitationRequest as _wms_workspace_v1_InvitationRequest, InvitationRequest__Output as _wms_workspace_v1_InvitationRequest__Output } from '../../../wms/workspace/v1/InvitationRequest.ts';
import type { InvitationTokenRequest as _wms_workspace_v1_InvitationTokenRequest, InvitationTokenRequest__Output as _wms_workspace_v1_InvitationTokenRequest__Output } from '../../../wms/workspace/v1/InvitationTokenRequest.ts';
import type { ListActorsRequest as _wms_workspace_v1_ListActorsRequest, ListActorsRequest__Output as _wms_workspace_v1_ListActorsRequest__Output } from '../../../wms/workspace/v1/ListActorsRequest.ts';
import type { ListActorsResponse as _wms_workspace_v1_ListActorsResponse, ListActorsResponse__Output as _wms_workspace_v1_ListActorsResponse__Output } from '../../../wms/workspace/v1/ListActorsResponse.ts';
import type { ListInvitationsRequest as _wms_workspace_v1_ListInvitationsRequest, ListInvitationsRequest__Output as _wms_workspace_v1_ListInvitationsRequest__Output } from '../../../wms/workspace/v1/ListInvitationsRequest.ts';
import type { ListReceivedInvitationsResponse as _wms_workspace_v1_ListReceivedInvitationsResponse, ListReceivedInvitationsResponse__Output as _wms_workspace_v1_ListReceivedInvitationsResponse__Output } from '../../../wms/workspace/v1/ListReceivedInvitationsResponse.ts';
import type { ListTokensResponse as _wms_workspace_v1_ListTokensResponse, ListTokensResponse__Output as _wms_workspace_v1_ListTokensResponse__Output } from '../../../wms/workspace/v1/ListTokensResponse.ts';
import type { ListWorkspaceUsersResponse as _wms_workspace_v1_ListWorkspaceUsersResponse, ListWorkspaceUsersResponse__Output as _wms_workspace_v1_ListWorkspaceUsersResponse__Output } from '../../../wms/workspace/v1/ListWorkspaceUsersResponse.ts';
import type { ListWorkspacesResponse as _wms_workspace_v1_ListWorkspacesResponse, ListWorkspacesResponse__Output as _wms_workspace_v1_ListWorkspacesResponse__Output } from '../../../wms/workspace/v1/ListWorkspacesResponse.ts';
import type { Membership as _wms_workspace_v1_Membership, Membership__Output as _wms_workspace_v1_Membership__Output } from '../../../wms/workspace/v1/Membership.ts';
import type { ReceivedInvitation as _wms_workspace_v1_ReceivedInvitation, ReceivedInvitation__Output as _wms_workspace_v1_ReceivedInvitation__Output } from '../../../wms/workspace/v1/ReceivedInvitation.ts';
import type { RecordTokenUseRequest as _wms_workspace_v1_RecordTokenUseRequest, RecordTokenUseRequest__Output as _wms_workspace_v1_RecordTokenUseRequest__Output } from '../../../wms/workspace/v1/RecordTokenUseRequest.ts';
import type { RegisterFromInvitationRequest as _wms_workspace_v1_RegisterFromInvitationRequest, RegisterFromInvitationRequest__Output as _wms_workspace_v1_RegisterFromInvitationRequest__Output } from '../../../wms/workspace/v1/RegisterFromInvitationRequest.ts';
import type { RemoveWorkspaceUserRequest as _wms_workspace_v1_RemoveWorkspaceUserRequest, RemoveWorkspaceUserRequest__Output as _wms_workspace_v1_RemoveWorkspaceUserRequest__Output } from '../../../wms/workspace/v1/RemoveWorkspaceUserRequest.ts';
import type { ResolveMembershipRequest as _wms_workspace_v1_ResolveMembershipRequest, ResolveMembershipRequest__Output as _wms_workspace_v1_ResolveMembershipRequest__Output } from '../../../wms/workspace/v1/ResolveMembershipRequest.ts';
import type { ResolveTokenRequest as _wms_workspace_v1_ResolveTokenRequest, ResolveTokenRequest__Output as _wms_workspace_v1_ResolveTokenRequest__Output } from '../../../wms/workspace/v1/ResolveTokenRequest.ts';
import type { ResolveTokenResponse as _wms_workspace_v1_ResolveTokenResponse, ResolveTokenResponse__Output as _wms_workspace_v1_ResolveTokenResponse__Output } from '../../../wms/workspace/v1/ResolveTokenResponse.ts';
import type { RevokeTokenRequest as _wms_workspace_v1_RevokeTokenRequest, RevokeTokenRequest__Output as _wms_workspace_v1_RevokeTokenRequest__Output } from '../../../wms/workspace/v1/RevokeTokenRequest.ts';
import type { SentInvitation as _wms_workspace_v1_SentInvitation, SentInvitation__Output as _wms_workspace_v1_SentInvitation__Output } from '../../../wms/workspace/v1/SentInvitation.ts';
import type { SetAvatarRequest as _wms_workspace_v1_SetAvatarRequest, SetAvatarRequest__Output as _wms_workspace_v1_SetAvatarRequest__Output } from '../../../wms/workspace/v1/SetAvatarRequest.ts';
import type { Token as _wms_workspace_v1_Token, Token__Output as _wms_workspace_v1_Token__Output } from '../../../wms/workspace/v1/Token.ts';
import type { TransferOwnershipRequest as _wms_workspace_v1_TransferOwnershipRequest, TransferOwnershipRequest__Output as _wms_workspace_v1_TransferOwnershipRequest__Output } from '../../../wms/workspace/v1/TransferOwnershipRequest.ts';
import type { UpdateActorRequest as _wms_workspace_v1_UpdateActorRequest, UpdateActorRequest__Output as _wms_workspace_v1_UpdateActorRequest__Output } from '../../../wms/workspace/v1/UpdateActorRequest.ts';
import type { UpdateWorkspaceRequest as _wms_workspace_v1_UpdateWorkspaceRequest, UpdateWorkspaceRequest__Output as _wms_workspace_v1_UpdateWorkspaceRequest__Output } from '../../../wms/workspace/v1/UpdateWorkspaceRequest.ts';
import type { UpdateWorkspaceUserRoleRequest as _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, UpdateWorkspaceUserRoleRequest__Output as _wms_workspace_v1_UpdateWorkspaceUserRoleRequest__Output } from '../../../wms/workspace/v1/UpdateWorkspaceUserRoleRequest.ts';
import type { Workspace as _wms_workspace_v1_Workspace, Workspace__Output as _wms_workspace_v1_Workspace__Output } from '../../../wms/workspace/v1/Workspace.ts';
import type { WorkspaceUser as _wms_workspace_v1_WorkspaceUser, WorkspaceUser__Output as _wms_workspace_v1_WorkspaceUser__Output } from '../../../wms/workspace/v1/WorkspaceUser.ts';

export interface WorkspaceServiceClient extends grpc.Client {
  AcceptInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  AcceptInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  AcceptInvitation(argument: _wms_workspace_v1_InvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  AcceptInvitation(argument: _wms_workspace_v1_InvitationRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  acceptInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  acceptInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  acceptInvitation(argument: _wms_workspace_v1_InvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  acceptInvitation(argument: _wms_workspace_v1_InvitationRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  
  AddWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  AddWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  AddWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  AddWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  addWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  addWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  addWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  addWorkspaceUser(argument: _wms_workspace_v1_AddWorkspaceUserRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  
  CreateAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  CreateAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  CreateAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  CreateAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  createAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  createAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  createAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  createAgentActor(argument: _wms_workspace_v1_CreateAgentActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  
  CreateConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  CreateConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  CreateConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  CreateConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createConversationToken(argument: _wms_workspace_v1_CreateTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  
  CreateInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  CreateInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  CreateInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  CreateInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _wms_workspace_v1_CreateInvitationRequest, callback: grpc.requestCallback<_wms_workspace_v1_SentInvitation__Output>): grpc.ClientUnaryCall;
  
  CreateWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  CreateWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  CreateWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  CreateWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  createWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  createWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  createWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  createWorkspace(argument: _wms_workspace_v1_CreateWorkspaceRequest, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  
  CreateWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  CreateWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  CreateWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  CreateWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  createWorkspaceToken(argument: _wms_workspace_v1_CreateTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_Token__Output>): grpc.ClientUnaryCall;
  
  DeactivateAgent(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  DeactivateAgent(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  DeactivateAgent(argument: _wms_workspace_v1_GetActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  DeactivateAgent(argument: _wms_workspace_v1_GetActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deactivateAgent(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deactivateAgent(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deactivateAgent(argument: _wms_workspace_v1_GetActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deactivateAgent(argument: _wms_workspace_v1_GetActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  
  DeclineInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeclineInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeclineInvitation(argument: _wms_workspace_v1_InvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeclineInvitation(argument: _wms_workspace_v1_InvitationRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  declineInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  declineInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  declineInvitation(argument: _wms_workspace_v1_InvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  declineInvitation(argument: _wms_workspace_v1_InvitationRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  DeleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  DeleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  DeleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  DeleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  deleteActorAvatar(argument: _wms_workspace_v1_ActorAvatarRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  
  DeleteWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteWorkspace(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteWorkspace(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteWorkspace(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteWorkspace(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  DeleteWorkspaceAvatar(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  DeleteWorkspaceAvatar(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  DeleteWorkspaceAvatar(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  DeleteWorkspaceAvatar(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  deleteWorkspaceAvatar(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  deleteWorkspaceAvatar(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  deleteWorkspaceAvatar(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  deleteWorkspaceAvatar(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  
  GetActor(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  GetActor(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  GetActor(argument: _wms_workspace_v1_GetActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  GetActor(argument: _wms_workspace_v1_GetActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  getActor(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  getActor(argument: _wms_workspace_v1_GetActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  getActor(argument: _wms_workspace_v1_GetActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  getActor(argument: _wms_workspace_v1_GetActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  
  GetActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getActorAvatar(argument: _wms_workspace_v1_GetAvatarRequest, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  
  GetActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  GetActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  GetActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  GetActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  getActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  getActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  getActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  getActorsByIds(argument: _wms_workspace_v1_GetActorsByIdsRequest, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  
  GetInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  GetInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  GetInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  GetInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  getInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  getInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  getInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  getInvitationByToken(argument: _wms_workspace_v1_InvitationTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_ReceivedInvitation__Output>): grpc.ClientUnaryCall;
  
  GetWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  GetWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  GetWorkspace(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  GetWorkspace(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  getWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  getWorkspace(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  getWorkspace(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  getWorkspace(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  
  GetWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  GetWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  getWorkspaceAvatar(argument: _wms_workspace_v1_GetAvatarRequest, callback: grpc.requestCallback<_wms_common_v1_Download__Output>): grpc.ClientUnaryCall;
  
  ListActors(argument: _wms_workspace_v1_ListActorsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  ListActors(argument: _wms_workspace_v1_ListActorsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  ListActors(argument: _wms_workspace_v1_ListActorsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  ListActors(argument: _wms_workspace_v1_ListActorsRequest, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  listActors(argument: _wms_workspace_v1_ListActorsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  listActors(argument: _wms_workspace_v1_ListActorsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  listActors(argument: _wms_workspace_v1_ListActorsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  listActors(argument: _wms_workspace_v1_ListActorsRequest, callback: grpc.requestCallback<_wms_workspace_v1_ListActorsResponse__Output>): grpc.ClientUnaryCall;
  
  ListConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listConversationTokens(argument: _wms_workspace_v1_ConversationTokensRequest, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  
  ListInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  ListInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  ListInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  ListInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _wms_workspace_v1_ListInvitationsRequest, callback: grpc.requestCallback<_wms_workspace_v1_InvitationPage__Output>): grpc.ClientUnaryCall;
  
  ListReceivedInvitations(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  ListReceivedInvitations(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  ListReceivedInvitations(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  ListReceivedInvitations(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listReceivedInvitations(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listReceivedInvitations(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listReceivedInvitations(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listReceivedInvitations(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListReceivedInvitationsResponse__Output>): grpc.ClientUnaryCall;
  
  ListWorkspaceTokens(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaceTokens(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaceTokens(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaceTokens(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceTokens(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceTokens(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceTokens(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceTokens(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListTokensResponse__Output>): grpc.ClientUnaryCall;
  
  ListWorkspaceUsers(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaceUsers(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaceUsers(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaceUsers(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceUsers(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceUsers(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceUsers(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaceUsers(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspaceUsersResponse__Output>): grpc.ClientUnaryCall;
  
  ListWorkspaces(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaces(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaces(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  ListWorkspaces(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaces(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaces(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaces(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  listWorkspaces(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_workspace_v1_ListWorkspacesResponse__Output>): grpc.ClientUnaryCall;
  
  RecordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RecordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RecordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RecordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  recordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  recordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  recordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  recordTokenUse(argument: _wms_workspace_v1_RecordTokenUseRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RegisterFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  RegisterFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  RegisterFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  RegisterFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  registerFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  registerFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  registerFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  registerFromInvitation(argument: _wms_workspace_v1_RegisterFromInvitationRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeWorkspaceUser(argument: _wms_workspace_v1_RemoveWorkspaceUserRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  ResolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  ResolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  ResolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  ResolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  resolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  resolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  resolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  resolveMembership(argument: _wms_workspace_v1_ResolveMembershipRequest, callback: grpc.requestCallback<_wms_workspace_v1_Membership__Output>): grpc.ClientUnaryCall;
  
  ResolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  ResolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  ResolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  ResolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  resolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  resolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  resolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  resolveToken(argument: _wms_workspace_v1_ResolveTokenRequest, callback: grpc.requestCallback<_wms_workspace_v1_ResolveTokenResponse__Output>): grpc.ClientUnaryCall;
  
  RevokeInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeInvitation(argument: _wms_workspace_v1_InvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeInvitation(argument: _wms_workspace_v1_InvitationRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _wms_workspace_v1_InvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _wms_workspace_v1_InvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _wms_workspace_v1_InvitationRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RevokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _wms_workspace_v1_RevokeTokenRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  SetActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  SetActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  SetActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  SetActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  setActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  setActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  setActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  setActorAvatar(argument: _wms_workspace_v1_SetAvatarRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  
  SetWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  SetWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  SetWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  SetWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  setWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  setWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  setWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  setWorkspaceAvatar(argument: _wms_workspace_v1_SetAvatarRequest, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  
  TransferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  TransferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  TransferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  TransferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  transferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  transferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  transferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  transferOwnership(argument: _wms_workspace_v1_TransferOwnershipRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  
  UpdateActor(argument: _wms_workspace_v1_UpdateActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  UpdateActor(argument: _wms_workspace_v1_UpdateActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  UpdateActor(argument: _wms_workspace_v1_UpdateActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  UpdateActor(argument: _wms_workspace_v1_UpdateActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  updateActor(argument: _wms_workspace_v1_UpdateActorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  updateActor(argument: _wms_workspace_v1_UpdateActorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  updateActor(argument: _wms_workspace_v1_UpdateActorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  updateActor(argument: _wms_workspace_v1_UpdateActorRequest, callback: grpc.requestCallback<_wms_workspace_v1_Actor__Output>): grpc.ClientUnaryCall;
  
  UpdateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  UpdateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  UpdateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  UpdateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  updateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  updateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  updateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  updateWorkspace(argument: _wms_workspace_v1_UpdateWorkspaceRequest, callback: grpc.requestCallback<_wms_workspace_v1_Workspace__Output>): grpc.ClientUnaryCall;
  
  UpdateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  UpdateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  UpdateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  UpdateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  updateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  updateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  updateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  updateWorkspaceUserRole(argument: _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, callback: grpc.requestCallback<_wms_workspace_v1_WorkspaceUser__Output>): grpc.ClientUnaryCall;
  
}

export interface WorkspaceServiceHandlers extends grpc.UntypedServiceImplementation {
  AcceptInvitation: grpc.handleUnaryCall<_wms_workspace_v1_InvitationRequest__Output, _wms_workspace_v1_WorkspaceUser>;
  
  AddWorkspaceUser: grpc.handleUnaryCall<_wms_workspace_v1_AddWorkspaceUserRequest__Output, _wms_workspace_v1_WorkspaceUser>;
  
  CreateAgentActor: grpc.handleUnaryCall<_wms_workspace_v1_CreateAgentActorRequest__Output, _wms_workspace_v1_Actor>;
  
  CreateConversationToken: grpc.handleUnaryCall<_wms_workspace_v1_CreateTokenRequest__Output, _wms_workspace_v1_Token>;
  
  CreateInvitation: grpc.handleUnaryCall<_wms_workspace_v1_CreateInvitationRequest__Output, _wms_workspace_v1_SentInvitation>;
  
  CreateWorkspace: grpc.handleUnaryCall<_wms_workspace_v1_CreateWorkspaceRequest__Output, _wms_workspace_v1_Workspace>;
  
  CreateWorkspaceToken: grpc.handleUnaryCall<_wms_workspace_v1_CreateTokenRequest__Output, _wms_workspace_v1_Token>;
  
  DeactivateAgent: grpc.handleUnaryCall<_wms_workspace_v1_GetActorRequest__Output, _wms_workspace_v1_Actor>;
  
  DeclineInvitation: grpc.handleUnaryCall<_wms_workspace_v1_InvitationRequest__Output, _wms_common_v1_Empty>;
  
  DeleteActorAvatar: grpc.handleUnaryCall<_wms_workspace_v1_ActorAvatarRequest__Output, _wms_workspace_v1_Actor>;
  
  DeleteWorkspace: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_common_v1_Empty>;
  
  DeleteWorkspaceAvatar: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_workspace_v1_Workspace>;
  
  GetActor: grpc.handleUnaryCall<_wms_workspace_v1_GetActorRequest__Output, _wms_workspace_v1_Actor>;
  
  GetActorAvatar: grpc.handleUnaryCall<_wms_workspace_v1_GetAvatarRequest__Output, _wms_common_v1_Download>;
  
  GetActorsByIds: grpc.handleUnaryCall<_wms_workspace_v1_GetActorsByIdsRequest__Output, _wms_workspace_v1_ListActorsResponse>;
  
  GetInvitationByToken: grpc.handleUnaryCall<_wms_workspace_v1_InvitationTokenRequest__Output, _wms_workspace_v1_ReceivedInvitation>;
  
  GetWorkspace: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_workspace_v1_Workspace>;
  
  GetWorkspaceAvatar: grpc.handleUnaryCall<_wms_workspace_v1_GetAvatarRequest__Output, _wms_common_v1_Download>;
  
  ListActors: grpc.handleUnaryCall<_wms_workspace_v1_ListActorsRequest__Output, _wms_workspace_v1_ListActorsResponse>;
  
  ListConversationTokens: grpc.handleUnaryCall<_wms_workspace_v1_ConversationTokensRequest__Output, _wms_workspace_v1_ListTokensResponse>;
  
  ListInvitations: grpc.handleUnaryCall<_wms_workspace_v1_ListInvitationsRequest__Output, _wms_workspace_v1_InvitationPage>;
  
  ListReceivedInvitations: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_workspace_v1_ListReceivedInvitationsResponse>;
  
  ListWorkspaceTokens: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_workspace_v1_ListTokensResponse>;
  
  ListWorkspaceUsers: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_workspace_v1_ListWorkspaceUsersResponse>;
  
  ListWorkspaces: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_workspace_v1_ListWorkspacesResponse>;
  
  RecordTokenUse: grpc.handleUnaryCall<_wms_workspace_v1_RecordTokenUseRequest__Output, _wms_common_v1_Empty>;
  
  RegisterFromInvitation: grpc.handleUnaryCall<_wms_workspace_v1_RegisterFromInvitationRequest__Output, _wms_common_v1_AuthResponse>;
  
  RemoveWorkspaceUser: grpc.handleUnaryCall<_wms_workspace_v1_RemoveWorkspaceUserRequest__Output, _wms_common_v1_Empty>;
  
  ResolveMembership: grpc.handleUnaryCall<_wms_workspace_v1_ResolveMembershipRequest__Output, _wms_workspace_v1_Membership>;
  
  ResolveToken: grpc.handleUnaryCall<_wms_workspace_v1_ResolveTokenRequest__Output, _wms_workspace_v1_ResolveTokenResponse>;
  
  RevokeInvitation: grpc.handleUnaryCall<_wms_workspace_v1_InvitationRequest__Output, _wms_common_v1_Empty>;
  
  RevokeToken: grpc.handleUnaryCall<_wms_workspace_v1_RevokeTokenRequest__Output, _wms_common_v1_Empty>;
  
  SetActorAvatar: grpc.handleUnaryCall<_wms_workspace_v1_SetAvatarRequest__Output, _wms_workspace_v1_Actor>;
  
  SetWorkspaceAvatar: grpc.handleUnaryCall<_wms_workspace_v1_SetAvatarRequest__Output, _wms_workspace_v1_Workspace>;
  
  TransferOwnership: grpc.handleUnaryCall<_wms_workspace_v1_TransferOwnershipRequest__Output, _wms_workspace_v1_WorkspaceUser>;
  
  UpdateActor: grpc.handleUnaryCall<_wms_workspace_v1_UpdateActorRequest__Output, _wms_workspace_v1_Actor>;
  
  UpdateWorkspace: grpc.handleUnaryCall<_wms_workspace_v1_UpdateWorkspaceRequest__Output, _wms_workspace_v1_Workspace>;
  
  UpdateWorkspaceUserRole: grpc.handleUnaryCall<_wms_workspace_v1_UpdateWorkspaceUserRoleRequest__Output, _wms_workspace_v1_WorkspaceUser>;
  
}

export interface WorkspaceServiceDefinition extends grpc.ServiceDefinition {
  AcceptInvitation: MethodDefinition<_wms_workspace_v1_InvitationRequest, _wms_workspace_v1_WorkspaceUser, _wms_workspace_v1_InvitationRequest__Output, _wms_workspace_v1_WorkspaceUser__Output>
  AddWorkspaceUser: MethodDefinition<_wms_workspace_v1_AddWorkspaceUserRequest, _wms_workspace_v1_WorkspaceUser, _wms_workspace_v1_AddWorkspaceUserRequest__Output, _wms_workspace_v1_WorkspaceUser__Output>
  CreateAgentActor: MethodDefinition<_wms_workspace_v1_CreateAgentActorRequest, _wms_workspace_v1_Actor, _wms_workspace_v1_CreateAgentActorRequest__Output, _wms_workspace_v1_Actor__Output>
  CreateConversationToken: MethodDefinition<_wms_workspace_v1_CreateTokenRequest, _wms_workspace_v1_Token, _wms_workspace_v1_CreateTokenRequest__Output, _wms_workspace_v1_Token__Output>
  CreateInvitation: MethodDefinition<_wms_workspace_v1_CreateInvitationRequest, _wms_workspace_v1_SentInvitation, _wms_workspace_v1_CreateInvitationRequest__Output, _wms_workspace_v1_SentInvitation__Output>
  CreateWorkspace: MethodDefinition<_wms_workspace_v1_CreateWorkspaceRequest, _wms_workspace_v1_Workspace, _wms_workspace_v1_CreateWorkspaceRequest__Output, _wms_workspace_v1_Workspace__Output>
  CreateWorkspaceToken: MethodDefinition<_wms_workspace_v1_CreateTokenRequest, _wms_workspace_v1_Token, _wms_workspace_v1_CreateTokenRequest__Output, _wms_workspace_v1_Token__Output>
  DeactivateAgent: MethodDefinition<_wms_workspace_v1_GetActorRequest, _wms_workspace_v1_Actor, _wms_workspace_v1_GetActorRequest__Output, _wms_workspace_v1_Actor__Output>
  DeclineInvitation: MethodDefinition<_wms_workspace_v1_InvitationRequest, _wms_common_v1_Empty, _wms_workspace_v1_InvitationRequest__Output, _wms_common_v1_Empty__Output>
  DeleteActorAvatar: MethodDefinition<_wms_workspace_v1_ActorAvatarRequest, _wms_workspace_v1_Actor, _wms_workspace_v1_ActorAvatarRequest__Output, _wms_workspace_v1_Actor__Output>
  DeleteWorkspace: MethodDefinition<_wms_common_v1_Empty, _wms_common_v1_Empty, _wms_common_v1_Empty__Output, _wms_common_v1_Empty__Output>
  DeleteWorkspaceAvatar: MethodDefinition<_wms_common_v1_Empty, _wms_workspace_v1_Workspace, _wms_common_v1_Empty__Output, _wms_workspace_v1_Workspace__Output>
  GetActor: MethodDefinition<_wms_workspace_v1_GetActorRequest, _wms_workspace_v1_Actor, _wms_workspace_v1_GetActorRequest__Output, _wms_workspace_v1_Actor__Output>
  GetActorAvatar: MethodDefinition<_wms_workspace_v1_GetAvatarRequest, _wms_common_v1_Download, _wms_workspace_v1_GetAvatarRequest__Output, _wms_common_v1_Download__Output>
  GetActorsByIds: MethodDefinition<_wms_workspace_v1_GetActorsByIdsRequest, _wms_workspace_v1_ListActorsResponse, _wms_workspace_v1_GetActorsByIdsRequest__Output, _wms_workspace_v1_ListActorsResponse__Output>
  GetInvitationByToken: MethodDefinition<_wms_workspace_v1_InvitationTokenRequest, _wms_workspace_v1_ReceivedInvitation, _wms_workspace_v1_InvitationTokenRequest__Output, _wms_workspace_v1_ReceivedInvitation__Output>
  GetWorkspace: MethodDefinition<_wms_common_v1_Empty, _wms_workspace_v1_Workspace, _wms_common_v1_Empty__Output, _wms_workspace_v1_Workspace__Output>
  GetWorkspaceAvatar: MethodDefinition<_wms_workspace_v1_GetAvatarRequest, _wms_common_v1_Download, _wms_workspace_v1_GetAvatarRequest__Output, _wms_common_v1_Download__Output>
  ListActors: MethodDefinition<_wms_workspace_v1_ListActorsRequest, _wms_workspace_v1_ListActorsResponse, _wms_workspace_v1_ListActorsRequest__Output, _wms_workspace_v1_ListActorsResponse__Output>
  ListConversationTokens: MethodDefinition<_wms_workspace_v1_ConversationTokensRequest, _wms_workspace_v1_ListTokensResponse, _wms_workspace_v1_ConversationTokensRequest__Output, _wms_workspace_v1_ListTokensResponse__Output>
  ListInvitations: MethodDefinition<_wms_workspace_v1_ListInvitationsRequest, _wms_workspace_v1_InvitationPage, _wms_workspace_v1_ListInvitationsRequest__Output, _wms_workspace_v1_InvitationPage__Output>
  ListReceivedInvitations: MethodDefinition<_wms_common_v1_Empty, _wms_workspace_v1_ListReceivedInvitationsResponse, _wms_common_v1_Empty__Output, _wms_workspace_v1_ListReceivedInvitationsResponse__Output>
  ListWorkspaceTokens: MethodDefinition<_wms_common_v1_Empty, _wms_workspace_v1_ListTokensResponse, _wms_common_v1_Empty__Output, _wms_workspace_v1_ListTokensResponse__Output>
  ListWorkspaceUsers: MethodDefinition<_wms_common_v1_Empty, _wms_workspace_v1_ListWorkspaceUsersResponse, _wms_common_v1_Empty__Output, _wms_workspace_v1_ListWorkspaceUsersResponse__Output>
  ListWorkspaces: MethodDefinition<_wms_common_v1_Empty, _wms_workspace_v1_ListWorkspacesResponse, _wms_common_v1_Empty__Output, _wms_workspace_v1_ListWorkspacesResponse__Output>
  RecordTokenUse: MethodDefinition<_wms_workspace_v1_RecordTokenUseRequest, _wms_common_v1_Empty, _wms_workspace_v1_RecordTokenUseRequest__Output, _wms_common_v1_Empty__Output>
  RegisterFromInvitation: MethodDefinition<_wms_workspace_v1_RegisterFromInvitationRequest, _wms_common_v1_AuthResponse, _wms_workspace_v1_RegisterFromInvitationRequest__Output, _wms_common_v1_AuthResponse__Output>
  RemoveWorkspaceUser: MethodDefinition<_wms_workspace_v1_RemoveWorkspaceUserRequest, _wms_common_v1_Empty, _wms_workspace_v1_RemoveWorkspaceUserRequest__Output, _wms_common_v1_Empty__Output>
  ResolveMembership: MethodDefinition<_wms_workspace_v1_ResolveMembershipRequest, _wms_workspace_v1_Membership, _wms_workspace_v1_ResolveMembershipRequest__Output, _wms_workspace_v1_Membership__Output>
  ResolveToken: MethodDefinition<_wms_workspace_v1_ResolveTokenRequest, _wms_workspace_v1_ResolveTokenResponse, _wms_workspace_v1_ResolveTokenRequest__Output, _wms_workspace_v1_ResolveTokenResponse__Output>
  RevokeInvitation: MethodDefinition<_wms_workspace_v1_InvitationRequest, _wms_common_v1_Empty, _wms_workspace_v1_InvitationRequest__Output, _wms_common_v1_Empty__Output>
  RevokeToken: MethodDefinition<_wms_workspace_v1_RevokeTokenRequest, _wms_common_v1_Empty, _wms_workspace_v1_RevokeTokenRequest__Output, _wms_common_v1_Empty__Output>
  SetActorAvatar: MethodDefinition<_wms_workspace_v1_SetAvatarRequest, _wms_workspace_v1_Actor, _wms_workspace_v1_SetAvatarRequest__Output, _wms_workspace_v1_Actor__Output>
  SetWorkspaceAvatar: MethodDefinition<_wms_workspace_v1_SetAvatarRequest, _wms_workspace_v1_Workspace, _wms_workspace_v1_SetAvatarRequest__Output, _wms_workspace_v1_Workspace__Output>
  TransferOwnership: MethodDefinition<_wms_workspace_v1_TransferOwnershipRequest, _wms_workspace_v1_WorkspaceUser, _wms_workspace_v1_TransferOwnershipRequest__Output, _wms_workspace_v1_WorkspaceUser__Output>
  UpdateActor: MethodDefinition<_wms_workspace_v1_UpdateActorRequest, _wms_workspace_v1_Actor, _wms_workspace_v1_UpdateActorRequest__Output, _wms_workspace_v1_Actor__Output>
  UpdateWorkspace: MethodDefinition<_wms_workspace_v1_UpdateWorkspaceRequest, _wms_workspace_v1_Workspace, _wms_workspace_v1_UpdateWorkspaceRequest__Output, _wms_workspace_v1_Workspace__Output>
  UpdateWorkspaceUserRole: MethodDefinition<_wms_workspace_v1_UpdateWorkspaceUserRoleRequest, _wms_workspace_v1_WorkspaceUser, _wms_workspace_v1_UpdateWorkspaceUserRoleRequest__Output, _wms_workspace_v1_WorkspaceUser__Output>
}
