// Original file: identity/v1/identity.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthResponse as _wms_common_v1_AuthResponse, AuthResponse__Output as _wms_common_v1_AuthResponse__Output } from '../../../wms/common/v1/AuthResponse.ts';
import type { EmailPendingResponse as _wms_identity_v1_EmailPendingResponse, EmailPendingResponse__Output as _wms_identity_v1_EmailPendingResponse__Output } from '../../../wms/identity/v1/EmailPendingResponse.ts';
import type { EmailRequest as _wms_identity_v1_EmailRequest, EmailRequest__Output as _wms_identity_v1_EmailRequest__Output } from '../../../wms/identity/v1/EmailRequest.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from '../../../wms/common/v1/Empty.ts';
import type { FindUserByEmailResponse as _wms_identity_v1_FindUserByEmailResponse, FindUserByEmailResponse__Output as _wms_identity_v1_FindUserByEmailResponse__Output } from '../../../wms/identity/v1/FindUserByEmailResponse.ts';
import type { GetUsersByIdsRequest as _wms_identity_v1_GetUsersByIdsRequest, GetUsersByIdsRequest__Output as _wms_identity_v1_GetUsersByIdsRequest__Output } from '../../../wms/identity/v1/GetUsersByIdsRequest.ts';
import type { GetUsersByIdsResponse as _wms_identity_v1_GetUsersByIdsResponse, GetUsersByIdsResponse__Output as _wms_identity_v1_GetUsersByIdsResponse__Output } from '../../../wms/identity/v1/GetUsersByIdsResponse.ts';
import type { InvitationMailRequest as _wms_identity_v1_InvitationMailRequest, InvitationMailRequest__Output as _wms_identity_v1_InvitationMailRequest__Output } from '../../../wms/identity/v1/InvitationMailRequest.ts';
import type { LoginRequest as _wms_identity_v1_LoginRequest, LoginRequest__Output as _wms_identity_v1_LoginRequest__Output } from '../../../wms/identity/v1/LoginRequest.ts';
import type { RegisterRequest as _wms_identity_v1_RegisterRequest, RegisterRequest__Output as _wms_identity_v1_RegisterRequest__Output } from '../../../wms/identity/v1/RegisterRequest.ts';
import type { RequestEmailCodeResponse as _wms_identity_v1_RequestEmailCodeResponse, RequestEmailCodeResponse__Output as _wms_identity_v1_RequestEmailCodeResponse__Output } from '../../../wms/identity/v1/RequestEmailCodeResponse.ts';
import type { ResetPasswordRequest as _wms_identity_v1_ResetPasswordRequest, ResetPasswordRequest__Output as _wms_identity_v1_ResetPasswordRequest__Output } from '../../../wms/identity/v1/ResetPasswordRequest.ts';
import type { UpdateMeRequest as _wms_identity_v1_UpdateMeRequest, UpdateMeRequest__Output as _wms_identity_v1_UpdateMeRequest__Output } from '../../../wms/identity/v1/UpdateMeRequest.ts';
import type { User as _wms_common_v1_User, User__Output as _wms_common_v1_User__Output } from '../../../wms/common/v1/User.ts';
import type { VerifyEmailCodeRequest as _wms_identity_v1_VerifyEmailCodeRequest, VerifyEmailCodeRequest__Output as _wms_identity_v1_VerifyEmailCodeRequest__Output } from '../../../wms/identity/v1/VerifyEmailCodeRequest.ts';
import type { VerifyEmailRequest as _wms_identity_v1_VerifyEmailRequest, VerifyEmailRequest__Output as _wms_identity_v1_VerifyEmailRequest__Output } from '../../../wms/identity/v1/VerifyEmailRequest.ts';
import type { VerifyEmailResponse as _wms_identity_v1_VerifyEmailResponse, VerifyEmailResponse__Output as _wms_identity_v1_VerifyEmailResponse__Output } from '../../../wms/identity/v1/VerifyEmailResponse.ts';

export interface IdentityServiceClient extends grpc.Client {
  CreateInvitedAccount(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  CreateInvitedAccount(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  CreateInvitedAccount(argument: _wms_identity_v1_RegisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  CreateInvitedAccount(argument: _wms_identity_v1_RegisterRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  createInvitedAccount(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  createInvitedAccount(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  createInvitedAccount(argument: _wms_identity_v1_RegisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  createInvitedAccount(argument: _wms_identity_v1_RegisterRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  
  FindUserByEmail(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  FindUserByEmail(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  FindUserByEmail(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  FindUserByEmail(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  findUserByEmail(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  findUserByEmail(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  findUserByEmail(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  findUserByEmail(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_FindUserByEmailResponse__Output>): grpc.ClientUnaryCall;
  
  GetMe(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  GetMe(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  GetMe(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  GetMe(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  getMe(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  getMe(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  getMe(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  getMe(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  
  GetUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  GetUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  GetUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  GetUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  getUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  getUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  getUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  getUsersByIds(argument: _wms_identity_v1_GetUsersByIdsRequest, callback: grpc.requestCallback<_wms_identity_v1_GetUsersByIdsResponse__Output>): grpc.ClientUnaryCall;
  
  Login(argument: _wms_identity_v1_LoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  Login(argument: _wms_identity_v1_LoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  Login(argument: _wms_identity_v1_LoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  Login(argument: _wms_identity_v1_LoginRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  login(argument: _wms_identity_v1_LoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  login(argument: _wms_identity_v1_LoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  login(argument: _wms_identity_v1_LoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  login(argument: _wms_identity_v1_LoginRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  
  Logout(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  Logout(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  Logout(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  Logout(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  logout(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  logout(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  logout(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  logout(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RecoverAccount(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  RecoverAccount(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  RecoverAccount(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  RecoverAccount(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  recoverAccount(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  recoverAccount(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  recoverAccount(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  recoverAccount(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  
  Register(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  Register(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  Register(argument: _wms_identity_v1_RegisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  Register(argument: _wms_identity_v1_RegisterRequest, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _wms_identity_v1_RegisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _wms_identity_v1_RegisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _wms_identity_v1_RegisterRequest, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  
  RequestEmailCode(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  RequestEmailCode(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  RequestEmailCode(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  RequestEmailCode(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  requestEmailCode(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  requestEmailCode(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  requestEmailCode(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  requestEmailCode(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_RequestEmailCodeResponse__Output>): grpc.ClientUnaryCall;
  
  RequestMagicLink(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  RequestMagicLink(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  RequestMagicLink(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  RequestMagicLink(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  requestMagicLink(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  requestMagicLink(argument: _wms_identity_v1_EmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  requestMagicLink(argument: _wms_identity_v1_EmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  requestMagicLink(argument: _wms_identity_v1_EmailRequest, callback: grpc.requestCallback<_wms_identity_v1_EmailPendingResponse__Output>): grpc.ClientUnaryCall;
  
  ResetPassword(argument: _wms_identity_v1_ResetPasswordRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  ResetPassword(argument: _wms_identity_v1_ResetPasswordRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  ResetPassword(argument: _wms_identity_v1_ResetPasswordRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  ResetPassword(argument: _wms_identity_v1_ResetPasswordRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _wms_identity_v1_ResetPasswordRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _wms_identity_v1_ResetPasswordRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _wms_identity_v1_ResetPasswordRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _wms_identity_v1_ResetPasswordRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  SendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  SendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  SendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  SendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  sendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  sendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  sendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  sendInvitationMail(argument: _wms_identity_v1_InvitationMailRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  UpdateMe(argument: _wms_identity_v1_UpdateMeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  UpdateMe(argument: _wms_identity_v1_UpdateMeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  UpdateMe(argument: _wms_identity_v1_UpdateMeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  UpdateMe(argument: _wms_identity_v1_UpdateMeRequest, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  updateMe(argument: _wms_identity_v1_UpdateMeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  updateMe(argument: _wms_identity_v1_UpdateMeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  updateMe(argument: _wms_identity_v1_UpdateMeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  updateMe(argument: _wms_identity_v1_UpdateMeRequest, callback: grpc.requestCallback<_wms_common_v1_User__Output>): grpc.ClientUnaryCall;
  
  VerifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  VerifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  VerifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  VerifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  verifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  verifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  verifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  verifyEmail(argument: _wms_identity_v1_VerifyEmailRequest, callback: grpc.requestCallback<_wms_identity_v1_VerifyEmailResponse__Output>): grpc.ClientUnaryCall;
  
  VerifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  VerifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  VerifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  VerifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  verifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  verifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  verifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  verifyEmailCode(argument: _wms_identity_v1_VerifyEmailCodeRequest, callback: grpc.requestCallback<_wms_common_v1_AuthResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface IdentityServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateInvitedAccount: grpc.handleUnaryCall<_wms_identity_v1_RegisterRequest__Output, _wms_common_v1_AuthResponse>;
  
  FindUserByEmail: grpc.handleUnaryCall<_wms_identity_v1_EmailRequest__Output, _wms_identity_v1_FindUserByEmailResponse>;
  
  GetMe: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_common_v1_User>;
  
  GetUsersByIds: grpc.handleUnaryCall<_wms_identity_v1_GetUsersByIdsRequest__Output, _wms_identity_v1_GetUsersByIdsResponse>;
  
  Login: grpc.handleUnaryCall<_wms_identity_v1_LoginRequest__Output, _wms_common_v1_AuthResponse>;
  
  Logout: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_common_v1_Empty>;
  
  RecoverAccount: grpc.handleUnaryCall<_wms_identity_v1_EmailRequest__Output, _wms_identity_v1_EmailPendingResponse>;
  
  Register: grpc.handleUnaryCall<_wms_identity_v1_RegisterRequest__Output, _wms_identity_v1_EmailPendingResponse>;
  
  RequestEmailCode: grpc.handleUnaryCall<_wms_identity_v1_EmailRequest__Output, _wms_identity_v1_RequestEmailCodeResponse>;
  
  RequestMagicLink: grpc.handleUnaryCall<_wms_identity_v1_EmailRequest__Output, _wms_identity_v1_EmailPendingResponse>;
  
  ResetPassword: grpc.handleUnaryCall<_wms_identity_v1_ResetPasswordRequest__Output, _wms_common_v1_Empty>;
  
  SendInvitationMail: grpc.handleUnaryCall<_wms_identity_v1_InvitationMailRequest__Output, _wms_common_v1_Empty>;
  
  UpdateMe: grpc.handleUnaryCall<_wms_identity_v1_UpdateMeRequest__Output, _wms_common_v1_User>;
  
  VerifyEmail: grpc.handleUnaryCall<_wms_identity_v1_VerifyEmailRequest__Output, _wms_identity_v1_VerifyEmailResponse>;
  
  VerifyEmailCode: grpc.handleUnaryCall<_wms_identity_v1_VerifyEmailCodeRequest__Output, _wms_common_v1_AuthResponse>;
  
}

export interface IdentityServiceDefinition extends grpc.ServiceDefinition {
  CreateInvitedAccount: MethodDefinition<_wms_identity_v1_RegisterRequest, _wms_common_v1_AuthResponse, _wms_identity_v1_RegisterRequest__Output, _wms_common_v1_AuthResponse__Output>
  FindUserByEmail: MethodDefinition<_wms_identity_v1_EmailRequest, _wms_identity_v1_FindUserByEmailResponse, _wms_identity_v1_EmailRequest__Output, _wms_identity_v1_FindUserByEmailResponse__Output>
  GetMe: MethodDefinition<_wms_common_v1_Empty, _wms_common_v1_User, _wms_common_v1_Empty__Output, _wms_common_v1_User__Output>
  GetUsersByIds: MethodDefinition<_wms_identity_v1_GetUsersByIdsRequest, _wms_identity_v1_GetUsersByIdsResponse, _wms_identity_v1_GetUsersByIdsRequest__Output, _wms_identity_v1_GetUsersByIdsResponse__Output>
  Login: MethodDefinition<_wms_identity_v1_LoginRequest, _wms_common_v1_AuthResponse, _wms_identity_v1_LoginRequest__Output, _wms_common_v1_AuthResponse__Output>
  Logout: MethodDefinition<_wms_common_v1_Empty, _wms_common_v1_Empty, _wms_common_v1_Empty__Output, _wms_common_v1_Empty__Output>
  RecoverAccount: MethodDefinition<_wms_identity_v1_EmailRequest, _wms_identity_v1_EmailPendingResponse, _wms_identity_v1_EmailRequest__Output, _wms_identity_v1_EmailPendingResponse__Output>
  Register: MethodDefinition<_wms_identity_v1_RegisterRequest, _wms_identity_v1_EmailPendingResponse, _wms_identity_v1_RegisterRequest__Output, _wms_identity_v1_EmailPendingResponse__Output>
  RequestEmailCode: MethodDefinition<_wms_identity_v1_EmailRequest, _wms_identity_v1_RequestEmailCodeResponse, _wms_identity_v1_EmailRequest__Output, _wms_identity_v1_RequestEmailCodeResponse__Output>
  RequestMagicLink: MethodDefinition<_wms_identity_v1_EmailRequest, _wms_identity_v1_EmailPendingResponse, _wms_identity_v1_EmailRequest__Output, _wms_identity_v1_EmailPendingResponse__Output>
  ResetPassword: MethodDefinition<_wms_identity_v1_ResetPasswordRequest, _wms_common_v1_Empty, _wms_identity_v1_ResetPasswordRequest__Output, _wms_common_v1_Empty__Output>
  SendInvitationMail: MethodDefinition<_wms_identity_v1_InvitationMailRequest, _wms_common_v1_Empty, _wms_identity_v1_InvitationMailRequest__Output, _wms_common_v1_Empty__Output>
  UpdateMe: MethodDefinition<_wms_identity_v1_UpdateMeRequest, _wms_common_v1_User, _wms_identity_v1_UpdateMeRequest__Output, _wms_common_v1_User__Output>
  VerifyEmail: MethodDefinition<_wms_identity_v1_VerifyEmailRequest, _wms_identity_v1_VerifyEmailResponse, _wms_identity_v1_VerifyEmailRequest__Output, _wms_identity_v1_VerifyEmailResponse__Output>
  VerifyEmailCode: MethodDefinition<_wms_identity_v1_VerifyEmailCodeRequest, _wms_common_v1_AuthResponse, _wms_identity_v1_VerifyEmailCodeRequest__Output, _wms_common_v1_AuthResponse__Output>
}
