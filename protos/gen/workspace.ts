import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Asset as _wms_common_v1_Asset, Asset__Output as _wms_common_v1_Asset__Output } from './wms/common/v1/Asset.ts';
import type { AuthResponse as _wms_common_v1_AuthResponse, AuthResponse__Output as _wms_common_v1_AuthResponse__Output } from './wms/common/v1/AuthResponse.ts';
import type { Download as _wms_common_v1_Download, Download__Output as _wms_common_v1_Download__Output } from './wms/common/v1/Download.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from './wms/common/v1/Empty.ts';
import type { JsonBody as _wms_common_v1_JsonBody, JsonBody__Output as _wms_common_v1_JsonBody__Output } from './wms/common/v1/JsonBody.ts';
import type { NullableString as _wms_common_v1_NullableString, NullableString__Output as _wms_common_v1_NullableString__Output } from './wms/common/v1/NullableString.ts';
import type { PurgeProgress as _wms_common_v1_PurgeProgress, PurgeProgress__Output as _wms_common_v1_PurgeProgress__Output } from './wms/common/v1/PurgeProgress.ts';
import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from './wms/common/v1/User.ts';
import type { WorkspacePurge as _wms_common_v1_WorkspacePurge, WorkspacePurge__Output as _wms_common_v1_WorkspacePurge__Output } from './wms/common/v1/WorkspacePurge.ts';
import type { Actor as _wms_workspace_v1_Actor, Actor__Output as _wms_workspace_v1_Actor__Output } from './wms/workspace/v1/Actor.ts';
import type { ActorAvatarRequest as _wms_workspace_v1_ActorAvatarRequest, ActorAvatarRequest__Output as _wms_workspace_v1_ActorAvatarRequest__Output } from './wms/workspace/v1/ActorAvatarRequest.ts';
import type { AddWorkspaceUserRequest as _wms_workspace_v1_AddWorkspaceUserRequest, AddWorkspaceUserRequest__Output as _wms_workspace_v1_AddWorkspaceUserRequest__Output } from './wms/workspace/v1/AddWorkspaceUserRequest.ts';
import type { ConversationTokensRequest as _wms_workspace_v1_ConversationTokensRequest, ConversationTokensRequest__Output as _wms_workspace_v1_ConversationTokensRequest__Output } from './wms/workspace/v1/ConversationTokensRequest.ts';
import type { CreateAgentActorRequest as _wms_workspace_v1_CreateAgentActorRequest, CreateAgentActorRequest__Output as _wms_workspace_v1_CreateAgentActorRequest__Output } from './wms/workspace/v1/CreateAgentActorRequest.ts';
import type { CreateInvitationRequest as _wms_workspace_v1_CreateInvitationRequest, CreateInvitationRequest__Output as _wms_workspace_v1_CreateInvitationRequest__Output } from './wms/workspace/v1/CreateInvitationRequest.ts';
import type { CreateTokenRequest as _wms_workspace_v1_CreateTokenRequest, CreateTokenRequest__Output as _wms_workspace_v1_CreateTokenRequest__Output } from './wms/workspace/v1/CreateTokenRequest.ts';
import type { CreateWorkspaceRequest as _wms_workspace_v1_CreateWorkspaceRequest, CreateWorkspaceRequest__Output as _wms_workspace_v1_CreateWorkspaceRequest__Output } from './wms/workspace/v1/CreateWorkspaceRequest.ts';
import type { GetActorRequest as _wms_workspace_v1_GetActorRequest, GetActorRequest__Output as _wms_workspace_v1_GetActorRequest__Output } from './wms/workspace/v1/GetActorRequest.ts';
import type { GetActorsByIdsRequest as _wms_workspace_v1_GetActorsByIdsRequest, GetActorsByIdsRequest__Output as _wms_workspace_v1_GetActorsByIdsRequest__Output } from './wms/workspace/v1/GetActorsByIdsRequest.ts';
import type { GetAvatarRequest as _wms_workspace_v1_GetAvatarRequest, GetAvatarRequest__Output as _wms_workspace_v1_GetAvatarRequest__Output } from './wms/workspace/v1/GetAvatarRequest.ts';
import type { Invitation as _wms_workspace_v1_Invitation, Invitation__Output as _wms_workspace_v1_Invitation__Output } from './wms/workspace/v1/Invitation.ts';
import type { InvitationPage as _wms_workspace_v1_InvitationPage, InvitationPage__Output as _wms_workspace_v1_InvitationPage__Output } from './wms/workspace/v1/InvitationPage.ts';
import type { InvitationRequest as _wms_workspace_v1_InvitationRequest, InvitationRequest__Output as _wms_workspace_v1_InvitationRequest__Output } from './wms/workspace/v1/InvitationRequest.ts';
import type { InvitationTokenRequest as _wms_workspace_v1_InvitationTokenRequest, InvitationTokenRequest__Output as _wms_workspace_v1_InvitationTokenRequest__Output } from './wms/workspace/v1/InvitationTokenRequest.ts';
import type { ListActorsRequest as _wms_workspace_v1_ListActorsRequest, ListActorsRequest__Output as _wms_workspace_v1_ListActorsRequest__Output } from './wms/workspace/v1/ListActorsRequest.ts';
import type { ListActorsResponse as _wms_workspace_v1_ListActorsResponse, ListActorsResponse__Output as _wms_workspace_v1_ListActorsResponse__Output } from './wms/workspace/v1/ListActorsResponse.ts';
import type { ListInvitationsRequest as _wms_workspace_v1_ListInvitationsRequest, ListInvitationsRequest__Output as _wms_workspace_v1_ListInvitationsRequest__Output } from './wms/workspace/v1/ListInvitationsRequest.ts';
import type { ListReceivedInvitationsResponse as _wms_workspace_v1_ListReceivedInvitationsResponse, ListReceivedInvitationsResponse__Output as _wms_workspace_v1_ListReceivedInvitationsResponse__Output } from './wms/workspace/v1/ListReceivedInvitationsResponse.ts';
import type { ListTokensResponse as _wms_workspace_v1_ListTokensResponse, ListTokensResponse__Output as _wms_workspace_v1_ListTokensResponse__Output } from './wms/workspace/v1/ListTokensResponse.ts';
import type { ListWorkspaceUsersResponse as _wms_workspace_v1_ListWorkspaceUsersResponse, ListWorkspaceUsersResponse__Output as _wms_workspace_v1_ListWorkspaceUsersResponse__Output } from './wms/workspace/v1/ListWorkspaceUsersResponse.ts';
import type { ListWorkspacesResponse as _wms_workspace_v1_ListWorkspacesResponse, ListWorkspacesResponse__Output as _wms_workspace_v1_ListWorkspacesResponse__Output } from './wms/workspace/v1/ListWorkspacesResponse.ts';
import type { Membership as _wms_workspace_v1_Membership, Membership__Output as _wms_workspace_v1_Membership__Output } from './wms/workspace/v1/Membership.ts';
import type { ReceivedInvitation as _wms_workspace_v1_ReceivedInvitation, ReceivedInvitation__Output as _wms_workspace_v1_ReceivedInvitation__Output } from './wms/workspace/v1/ReceivedInvitation.ts';
import type { RecordTokenUseRequest as _wms_workspace_v1_RecordTokenUseRequest, RecordTokenUseRequest__Output as _wms_workspace_v1_RecordTokenUseRequest__Output } from './wms/workspace/v1/RecordTokenUseRequest.ts';
import type { RegisterFromInvitationRequest as _wms_workspace_v1_RegisterFromInvitationRequest, RegisterFromInvitationRequest__Output as _wms_workspace_v1_RegisterFromInvitationRequest__Output } from './wms/workspace/v1/RegisterFromInvitationRequest.ts';
import type { RemoveWorkspaceUserRequest as _wms_workspace_v1_RemoveWorkspaceUserRequest, RemoveWorkspaceUserRequest__Output as _wms_workspace_v1_RemoveWorkspaceUserRequest__Output } from './wms/workspace/v1/RemoveWorkspaceUserRequest.ts';
import type { ResolveMembershipRequest as _wms_workspace_v1_ResolveMembershipRequest, ResolveMembershipRequest__Output as _wms_workspace_v1_ResolveMembershipRequest__Output } from './wms/workspace/v1/ResolveMembershipRequest.ts';
import type { ResolveTokenRequest as _wms_workspace_v1_ResolveTokenRequest, ResolveTokenRequest__Output as _wms_workspace_v1_ResolveTokenRequest__Output } from './wms/workspace/v1/ResolveTokenRequest.ts';
import type { ResolveTokenResponse as _wms_workspace_v1_ResolveTokenResponse, ResolveTokenResponse__Output as _wms_workspace_v1_ResolveTokenResponse__Output } from './wms/workspace/v1/ResolveTokenResponse.ts';
import type { RevokeTokenRequest as _wms_workspace_v1_RevokeTokenRequest, RevokeTokenRequest__Output as _wms_workspace_v1_RevokeTokenRequest__Output } from './wms/workspace/v1/RevokeTokenRequest.ts';
import type { SentInvitation as _wms_workspace_v1_SentInvitation, SentInvitation__Output as _wms_workspace_v1_SentInvitation__Output } from './wms/workspace/v1/SentInvitation.ts';
import type { SetAvatarRequest as _wms_workspace_v1_SetAvatarRequest, SetAvatarRequest__Output as _wms_workspace_v1_SetAvatarRequest__Output } from './wms/workspace/v1/SetAvatarRequest.ts';
import type { Token as _wms_workspace_v1_Token, Token__Output as _wms_workspace_v1_Token__Output } from './wms/workspace/v1/Token.ts';
import type { TransferOwnershipRequest as _wms_workspace_v1_TransferOwnershipRequest, TransferOwnershipRequest__Output as _wms_workspace_v1_TransferOwnershipRequest__Output } from './wms/workspace/v1/TransferOwnershipRequest.ts';
import type { UpdateActorRequest as _wms_workspace_v1_UpdateActorRequest, UpdateActorRequest__Output as _wms_workspace_v1_UpdateActorRequest__Output } from './wms/workspace/v1/UpdateActorRequest.ts';
import type { UpdateWorkspaceRequest as _wms_workspace_v1_UpdateWorkspaceRequest, UpdateWorkspaceRequest__Output as _wms_workspace_v1_UpdateWorkspaceRequest__Output } from './wms/workspace/v1/UpdateWorkspaceRequest.ts';
import type { UpdateWorkspaceUserRoleRequest as _wms_workspace_v1_UpdateWorkspaceUserRoleRequest, UpdateWorkspaceUserRoleRequest__Output as _wms_workspace_v1_UpdateWorkspaceUserRoleRequest__Output } from './wms/workspace/v1/UpdateWorkspaceUserRoleRequest.ts';
import type { UserSummary as _wms_workspace_v1_UserSummary, UserSummary__Output as _wms_workspace_v1_UserSummary__Output } from './wms/workspace/v1/UserSummary.ts';
import type { Workspace as _wms_workspace_v1_Workspace, Workspace__Output as _wms_workspace_v1_Workspace__Output } from './wms/workspace/v1/Workspace.ts';
import type { WorkspaceServiceClient as _wms_workspace_v1_WorkspaceServiceClient, WorkspaceServiceDefinition as _wms_workspace_v1_WorkspaceServiceDefinition } from './wms/workspace/v1/WorkspaceService.ts';
import type { WorkspaceUser as _wms_workspace_v1_WorkspaceUser, WorkspaceUser__Output as _wms_workspace_v1_WorkspaceUser__Output } from './wms/workspace/v1/WorkspaceUser.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  wms: {
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
    workspace: {
      v1: {
        Actor: MessageTypeDefinition<_wms_workspace_v1_Actor, _wms_workspace_v1_Actor__Output>
        ActorAvatarRequest: MessageTypeDefinition<_wms_workspace_v1_ActorAvatarRequest, _wms_workspace_v1_ActorAvatarRequest__Output>
        AddWorkspaceUserRequest: MessageTypeDefinition<_wms_workspace_v1_AddWorkspaceUserRequest, _wms_workspace_v1_AddWorkspaceUserRequest__Output>
        ConversationTokensRequest: MessageTypeDefinition<_wms_workspace_v1_ConversationTokensRequest, _wms_workspace_v1_ConversationTokensRequest__Output>
        CreateAgentActorRequest: MessageTypeDefinition<_wms_workspace_v1_CreateAgentActorRequest, _wms_workspace_v1_CreateAgentActorRequest__Output>
        CreateInvitationRequest: MessageTypeDefinition<_wms_workspace_v1_CreateInvitationRequest, _wms_workspace_v1_CreateInvitationRequest__Output>
        CreateTokenRequest: MessageTypeDefinition<_wms_workspace_v1_CreateTokenRequest, _wms_workspace_v1_CreateTokenRequest__Output>
        CreateWorkspaceRequest: MessageTypeDefinition<_wms_workspace_v1_CreateWorkspaceRequest, _wms_workspace_v1_CreateWorkspaceRequest__Output>
        GetActorRequest: MessageTypeDefinition<_wms_workspace_v1_GetActorRequest, _wms_workspace_v1_GetActorRequest__Output>
        GetActorsByIdsRequest: MessageTypeDefinition<_wms_workspace_v1_GetActorsByIdsRequest, _wms_workspace_v1_GetActorsByIdsRequest__Output>
        GetAvatarRequest: MessageTypeDefinition<_wms_workspace_v1_GetAvatarRequest, _wms_workspace_v1_GetAvatarRequest__Output>
        Invitation: MessageTypeDefinition<_wms_workspace_v1_Invitation, _wms_workspace_v1_Invitation__Output>
        InvitationPage: MessageTypeDefinition<_wms_workspace_v1_InvitationPage, _wms_workspace_v1_InvitationPage__Output>
        InvitationRequest: MessageTypeDefinition<_wms_workspace_v1_InvitationRequest, _wms_workspace_v1_InvitationRequest__Output>
        InvitationTokenRequest: MessageTypeDefinition<_wms_workspace_v1_InvitationTokenRequest, _wms_workspace_v1_InvitationTokenRequest__Output>
        ListActorsRequest: MessageTypeDefinition<_wms_workspace_v1_ListActorsRequest, _wms_workspace_v1_ListActorsRequest__Output>
        ListActorsResponse: MessageTypeDefinition<_wms_workspace_v1_ListActorsResponse, _wms_workspace_v1_ListActorsResponse__Output>
        ListInvitationsRequest: MessageTypeDefinition<_wms_workspace_v1_ListInvitationsRequest, _wms_workspace_v1_ListInvitationsRequest__Output>
        ListReceivedInvitationsResponse: MessageTypeDefinition<_wms_workspace_v1_ListReceivedInvitationsResponse, _wms_workspace_v1_ListReceivedInvitationsResponse__Output>
        ListTokensResponse: MessageTypeDefinition<_wms_workspace_v1_ListTokensResponse, _wms_workspace_v1_ListTokensResponse__Output>
        ListWorkspaceUsersResponse: MessageTypeDefinition<_wms_workspace_v1_ListWorkspaceUsersResponse, _wms_workspace_v1_ListWorkspaceUsersResponse__Output>
        ListWorkspacesResponse: MessageTypeDefinition<_wms_workspace_v1_ListWorkspacesResponse, _wms_workspace_v1_ListWorkspacesResponse__Output>
        Membership: MessageTypeDefinition<_wms_workspace_v1_Membership, _wms_workspace_v1_Membership__Output>
        ReceivedInvitation: MessageTypeDefinition<_wms_workspace_v1_ReceivedInvitation, _wms_workspace_v1_ReceivedInvitation__Output>
        RecordTokenUseRequest: MessageTypeDefinition<_wms_workspace_v1_RecordTokenUseRequest, _wms_workspace_v1_RecordTokenUseRequest__Output>
        RegisterFromInvitationRequest: MessageTypeDefinition<_wms_workspace_v1_RegisterFromInvitationRequest, _wms_workspace_v1_RegisterFromInvitationRequest__Output>
        RemoveWorkspaceUserRequest: MessageTypeDefinition<_wms_workspace_v1_RemoveWorkspaceUserRequest, _wms_workspace_v1_RemoveWorkspaceUserRequest__Output>
        ResolveMembershipRequest: MessageTypeDefinition<_wms_workspace_v1_ResolveMembershipRequest, _wms_workspace_v1_ResolveMembershipRequest__Output>
        ResolveTokenRequest: MessageTypeDefinition<_wms_workspace_v1_ResolveTokenRequest, _wms_workspace_v1_ResolveTokenRequest__Output>
        ResolveTokenResponse: MessageTypeDefinition<_wms_workspace_v1_ResolveTokenResponse, _wms_workspace_v1_ResolveTokenResponse__Output>
        RevokeTokenRequest: MessageTypeDefinition<_wms_workspace_v1_RevokeTokenRequest, _wms_workspace_v1_RevokeTokenRequest__Output>
        SentInvitation: MessageTypeDefinition<_wms_workspace_v1_SentInvitation, _wms_workspace_v1_SentInvitation__Output>
        SetAvatarRequest: MessageTypeDefinition<_wms_workspace_v1_SetAvatarRequest, _wms_workspace_v1_SetAvatarRequest__Output>
        Token: MessageTypeDefinition<_wms_workspace_v1_Token, _wms_workspace_v1_Token__Output>
        TransferOwnershipRequest: MessageTypeDefinition<_wms_workspace_v1_TransferOwnershipRequest, _wms_workspace_v1_TransferOwnershipRequest__Output>
        UpdateActorRequest: MessageTypeDefinition<_wms_workspace_v1_UpdateActorRequest, _wms_workspace_v1_UpdateActorRequest__Output>
        UpdateWorkspaceRequest: MessageTypeDefinition<_wms_workspace_v1_UpdateWorkspaceRequest, _wms_workspace_v1_UpdateWorkspaceRequest__Output>
        UpdateWorkspaceUserRoleRequest: MessageTypeDefinition<_wms_workspace_v1_UpdateWorkspaceUserRoleRequest, _wms_workspace_v1_UpdateWorkspaceUserRoleRequest__Output>
        UserSummary: MessageTypeDefinition<_wms_workspace_v1_UserSummary, _wms_workspace_v1_UserSummary__Output>
        Workspace: MessageTypeDefinition<_wms_workspace_v1_Workspace, _wms_workspace_v1_Workspace__Output>
        WorkspaceService: SubtypeConstructor<typeof grpc.Client, _wms_workspace_v1_WorkspaceServiceClient> & { service: _wms_workspace_v1_WorkspaceServiceDefinition }
        WorkspaceUser: MessageTypeDefinition<_wms_workspace_v1_WorkspaceUser, _wms_workspace_v1_WorkspaceUser__Output>
      }
    }
  }
}

