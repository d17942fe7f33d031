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
import type { EmailPendingResponse as _wms_identity_v1_EmailPendingResponse, EmailPendingResponse__Output as _wms_identity_v1_EmailPendingResponse__Output } from './wms/identity/v1/EmailPendingResponse.ts';
import type { EmailRequest as _wms_identity_v1_EmailRequest, EmailRequest__Output as _wms_identity_v1_EmailRequest__Output } from './wms/identity/v1/EmailRequest.ts';
import type { FindUserByEmailResponse as _wms_identity_v1_FindUserByEmailResponse, FindUserByEmailResponse__Output as _wms_identity_v1_FindUserByEmailResponse__Output } from './wms/identity/v1/FindUserByEmailResponse.ts';
import type { GetUsersByIdsRequest as _wms_identity_v1_GetUsersByIdsRequest, GetUsersByIdsRequest__Output as _wms_identity_v1_GetUsersByIdsRequest__Output } from './wms/identity/v1/GetUsersByIdsRequest.ts';
import type { GetUsersByIdsResponse as _wms_identity_v1_GetUsersByIdsResponse, GetUsersByIdsResponse__Output as _wms_identity_v1_GetUsersByIdsResponse__Output } from './wms/identity/v1/GetUsersByIdsResponse.ts';
import type { IdentityServiceClient as _wms_identity_v1_IdentityServiceClient, IdentityServiceDefinition as _wms_identity_v1_IdentityServiceDefinition } from './wms/identity/v1/IdentityService.ts';
import type { InvitationMailRequest as _wms_identity_v1_InvitationMailRequest, InvitationMailRequest__Output as _wms_identity_v1_InvitationMailRequest__Output } from './wms/identity/v1/InvitationMailRequest.ts';
import type { LoginRequest as _wms_identity_v1_LoginRequest, LoginRequest__Output as _wms_identity_v1_LoginRequest__Output } from './wms/identity/v1/LoginRequest.ts';
import type { RegisterRequest as _wms_identity_v1_RegisterRequest, RegisterRequest__Output as _wms_identity_v1_RegisterRequest__Output } from './wms/identity/v1/RegisterRequest.ts';
import type { RequestEmailCodeResponse as _wms_identity_v1_RequestEmailCodeResponse, RequestEmailCodeResponse__Output as _wms_identity_v1_RequestEmailCodeResponse__Output } from './wms/identity/v1/RequestEmailCodeResponse.ts';
import type { ResetPasswordRequest as _wms_identity_v1_ResetPasswordRequest, ResetPasswordRequest__Output as _wms_identity_v1_ResetPasswordRequest__Output } from './wms/identity/v1/ResetPasswordRequest.ts';
import type { UpdateMeRequest as _wms_identity_v1_UpdateMeRequest, UpdateMeRequest__Output as _wms_identity_v1_UpdateMeRequest__Output } from './wms/identity/v1/UpdateMeRequest.ts';
import type { VerifyEmailCodeRequest as _wms_identity_v1_VerifyEmailCodeRequest, VerifyEmailCodeRequest__Output as _wms_identity_v1_VerifyEmailCodeRequest__Output } from './wms/identity/v1/VerifyEmailCodeRequest.ts';
import type { VerifyEmailRequest as _wms_identity_v1_VerifyEmailRequest, VerifyEmailRequest__Output as _wms_identity_v1_VerifyEmailRequest__Output } from './wms/identity/v1/VerifyEmailRequest.ts';
import type { VerifyEmailResponse as _wms_identity_v1_VerifyEmailResponse, VerifyEmailResponse__Output as _wms_identity_v1_VerifyEmailResponse__Output } from './wms/identity/v1/VerifyEmailResponse.ts';

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
    identity: {
      v1: {
        EmailPendingResponse: MessageTypeDefinition<_wms_identity_v1_EmailPendingResponse, _wms_identity_v1_EmailPendingResponse__Output>
        EmailRequest: MessageTypeDefinition<_wms_identity_v1_EmailRequest, _wms_identity_v1_EmailRequest__Output>
        FindUserByEmailResponse: MessageTypeDefinition<_wms_identity_v1_FindUserByEmailResponse, _wms_identity_v1_FindUserByEmailResponse__Output>
        GetUsersByIdsRequest: MessageTypeDefinition<_wms_identity_v1_GetUsersByIdsRequest, _wms_identity_v1_GetUsersByIdsRequest__Output>
        GetUsersByIdsResponse: MessageTypeDefinition<_wms_identity_v1_GetUsersByIdsResponse, _wms_identity_v1_GetUsersByIdsResponse__Output>
        IdentityService: SubtypeConstructor<typeof grpc.Client, _wms_identity_v1_IdentityServiceClient> & { service: _wms_identity_v1_IdentityServiceDefinition }
        InvitationMailRequest: MessageTypeDefinition<_wms_identity_v1_InvitationMailRequest, _wms_identity_v1_InvitationMailRequest__Output>
        LoginRequest: MessageTypeDefinition<_wms_identity_v1_LoginRequest, _wms_identity_v1_LoginRequest__Output>
        RegisterRequest: MessageTypeDefinition<_wms_identity_v1_RegisterRequest, _wms_identity_v1_RegisterRequest__Output>
        RequestEmailCodeResponse: MessageTypeDefinition<_wms_identity_v1_RequestEmailCodeResponse, _wms_identity_v1_RequestEmailCodeResponse__Output>
        ResetPasswordRequest: MessageTypeDefinition<_wms_identity_v1_ResetPasswordRequest, _wms_identity_v1_ResetPasswordRequest__Output>
        UpdateMeRequest: MessageTypeDefinition<_wms_identity_v1_UpdateMeRequest, _wms_identity_v1_UpdateMeRequest__Output>
        VerifyEmailCodeRequest: MessageTypeDefinition<_wms_identity_v1_VerifyEmailCodeRequest, _wms_identity_v1_VerifyEmailCodeRequest__Output>
        VerifyEmailRequest: MessageTypeDefinition<_wms_identity_v1_VerifyEmailRequest, _wms_identity_v1_VerifyEmailRequest__Output>
        VerifyEmailResponse: MessageTypeDefinition<_wms_identity_v1_VerifyEmailResponse, _wms_identity_v1_VerifyEmailResponse__Output>
      }
    }
  }
}

