// Original file: realtime/v1/realtime.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcceptWebhookRequest as _wms_realtime_v1_AcceptWebhookRequest, AcceptWebhookRequest__Output as _wms_realtime_v1_AcceptWebhookRequest__Output } from '../../../wms/realtime/v1/AcceptWebhookRequest.ts';
import type { AuthenticateUserRequest as _wms_realtime_v1_AuthenticateUserRequest, AuthenticateUserRequest__Output as _wms_realtime_v1_AuthenticateUserRequest__Output } from '../../../wms/realtime/v1/AuthenticateUserRequest.ts';
import type { AuthorizeChannelRequest as _wms_realtime_v1_AuthorizeChannelRequest, AuthorizeChannelRequest__Output as _wms_realtime_v1_AuthorizeChannelRequest__Output } from '../../../wms/realtime/v1/AuthorizeChannelRequest.ts';
import type { ChannelAuthorization as _wms_realtime_v1_ChannelAuthorization, ChannelAuthorization__Output as _wms_realtime_v1_ChannelAuthorization__Output } from '../../../wms/realtime/v1/ChannelAuthorization.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from '../../../wms/common/v1/Empty.ts';
import type { EventPage as _wms_realtime_v1_EventPage, EventPage__Output as _wms_realtime_v1_EventPage__Output } from '../../../wms/realtime/v1/EventPage.ts';
import type { ListEventsRequest as _wms_realtime_v1_ListEventsRequest, ListEventsRequest__Output as _wms_realtime_v1_ListEventsRequest__Output } from '../../../wms/realtime/v1/ListEventsRequest.ts';
import type { PresenceList as _wms_realtime_v1_PresenceList, PresenceList__Output as _wms_realtime_v1_PresenceList__Output } from '../../../wms/realtime/v1/PresenceList.ts';
import type { PublishEventsRequest as _wms_realtime_v1_PublishEventsRequest, PublishEventsRequest__Output as _wms_realtime_v1_PublishEventsRequest__Output } from '../../../wms/realtime/v1/PublishEventsRequest.ts';
import type { PublishEventsResponse as _wms_realtime_v1_PublishEventsResponse, PublishEventsResponse__Output as _wms_realtime_v1_PublishEventsResponse__Output } from '../../../wms/realtime/v1/PublishEventsResponse.ts';
import type { RealtimeConfig as _wms_realtime_v1_RealtimeConfig, RealtimeConfig__Output as _wms_realtime_v1_RealtimeConfig__Output } from '../../../wms/realtime/v1/RealtimeConfig.ts';
import type { UserAuthorization as _wms_realtime_v1_UserAuthorization, UserAuthorization__Output as _wms_realtime_v1_UserAuthorization__Output } from '../../../wms/realtime/v1/UserAuthorization.ts';

export interface RealtimeServiceClient extends grpc.Client {
  AcceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AcceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AcceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AcceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  acceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  acceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  acceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  acceptWebhook(argument: _wms_realtime_v1_AcceptWebhookRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  AuthenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  AuthenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  AuthenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  AuthenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  authenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  authenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  authenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  authenticateUser(argument: _wms_realtime_v1_AuthenticateUserRequest, callback: grpc.requestCallback<_wms_realtime_v1_UserAuthorization__Output>): grpc.ClientUnaryCall;
  
  AuthorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  AuthorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  AuthorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  AuthorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  authorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  authorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  authorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  authorizeChannel(argument: _wms_realtime_v1_AuthorizeChannelRequest, callback: grpc.requestCallback<_wms_realtime_v1_ChannelAuthorization__Output>): grpc.ClientUnaryCall;
  
  GetRealtimeConfig(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  GetRealtimeConfig(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  GetRealtimeConfig(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  GetRealtimeConfig(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  getRealtimeConfig(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  getRealtimeConfig(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  getRealtimeConfig(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  getRealtimeConfig(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_realtime_v1_RealtimeConfig__Output>): grpc.ClientUnaryCall;
  
  ListEvents(argument: _wms_realtime_v1_ListEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _wms_realtime_v1_ListEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _wms_realtime_v1_ListEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _wms_realtime_v1_ListEventsRequest, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _wms_realtime_v1_ListEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _wms_realtime_v1_ListEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _wms_realtime_v1_ListEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _wms_realtime_v1_ListEventsRequest, callback: grpc.requestCallback<_wms_realtime_v1_EventPage__Output>): grpc.ClientUnaryCall;
  
  ListPresence(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  ListPresence(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  ListPresence(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  ListPresence(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  listPresence(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  listPresence(argument: _wms_common_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  listPresence(argument: _wms_common_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  listPresence(argument: _wms_common_v1_Empty, callback: grpc.requestCallback<_wms_realtime_v1_PresenceList__Output>): grpc.ClientUnaryCall;
  
  PublishEvents(argument: _wms_realtime_v1_PublishEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  PublishEvents(argument: _wms_realtime_v1_PublishEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  PublishEvents(argument: _wms_realtime_v1_PublishEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  PublishEvents(argument: _wms_realtime_v1_PublishEventsRequest, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  publishEvents(argument: _wms_realtime_v1_PublishEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  publishEvents(argument: _wms_realtime_v1_PublishEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  publishEvents(argument: _wms_realtime_v1_PublishEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  publishEvents(argument: _wms_realtime_v1_PublishEventsRequest, callback: grpc.requestCallback<_wms_realtime_v1_PublishEventsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RealtimeServiceHandlers extends grpc.UntypedServiceImplementation {
  AcceptWebhook: grpc.handleUnaryCall<_wms_realtime_v1_AcceptWebhookRequest__Output, _wms_common_v1_Empty>;
  
  AuthenticateUser: grpc.handleUnaryCall<_wms_realtime_v1_AuthenticateUserRequest__Output, _wms_realtime_v1_UserAuthorization>;
  
  AuthorizeChannel: grpc.handleUnaryCall<_wms_realtime_v1_AuthorizeChannelRequest__Output, _wms_realtime_v1_ChannelAuthorization>;
  
  GetRealtimeConfig: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_realtime_v1_RealtimeConfig>;
  
  ListEvents: grpc.handleUnaryCall<_wms_realtime_v1_ListEventsRequest__Output, _wms_realtime_v1_EventPage>;
  
  ListPresence: grpc.handleUnaryCall<_wms_common_v1_Empty__Output, _wms_realtime_v1_PresenceList>;
  
  PublishEvents: grpc.handleUnaryCall<_wms_realtime_v1_PublishEventsRequest__Output, _wms_realtime_v1_PublishEventsResponse>;
  
}

export interface RealtimeServiceDefinition extends grpc.ServiceDefinition {
  AcceptWebhook: MethodDefinition<_wms_realtime_v1_AcceptWebhookRequest, _wms_common_v1_Empty, _wms_realtime_v1_AcceptWebhookRequest__Output, _wms_common_v1_Empty__Output>
  AuthenticateUser: MethodDefinition<_wms_realtime_v1_AuthenticateUserRequest, _wms_realtime_v1_UserAuthorization, _wms_realtime_v1_AuthenticateUserRequest__Output, _wms_realtime_v1_UserAuthorization__Output>
  AuthorizeChannel: MethodDefinition<_wms_realtime_v1_AuthorizeChannelRequest, _wms_realtime_v1_ChannelAuthorization, _wms_realtime_v1_AuthorizeChannelRequest__Output, _wms_realtime_v1_ChannelAuthorization__Output>
  GetRealtimeConfig: MethodDefinition<_wms_common_v1_Empty, _wms_realtime_v1_RealtimeConfig, _wms_common_v1_Empty__Output, _wms_realtime_v1_RealtimeConfig__Output>
  ListEvents: MethodDefinition<_wms_realtime_v1_ListEventsRequest, _wms_realtime_v1_EventPage, _wms_realtime_v1_ListEventsRequest__Output, _wms_realtime_v1_EventPage__Output>
  ListPresence: MethodDefinition<_wms_common_v1_Empty, _wms_realtime_v1_PresenceList, _wms_common_v1_Empty__Output, _wms_realtime_v1_PresenceList__Output>
  PublishEvents: MethodDefinition<_wms_realtime_v1_PublishEventsRequest, _wms_realtime_v1_PublishEventsResponse, _wms_realtime_v1_PublishEventsRequest__Output, _wms_realtime_v1_PublishEventsResponse__Output>
}
