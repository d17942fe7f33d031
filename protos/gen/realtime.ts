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
import type { AcceptWebhookRequest as _wms_realtime_v1_AcceptWebhookRequest, AcceptWebhookRequest__Output as _wms_realtime_v1_AcceptWebhookRequest__Output } from './wms/realtime/v1/AcceptWebhookRequest.ts';
import type { ActorPresence as _wms_realtime_v1_ActorPresence, ActorPresence__Output as _wms_realtime_v1_ActorPresence__Output } from './wms/realtime/v1/ActorPresence.ts';
import type { AuthenticateUserRequest as _wms_realtime_v1_AuthenticateUserRequest, AuthenticateUserRequest__Output as _wms_realtime_v1_AuthenticateUserRequest__Output } from './wms/realtime/v1/AuthenticateUserRequest.ts';
import type { AuthorizeChannelRequest as _wms_realtime_v1_AuthorizeChannelRequest, AuthorizeChannelRequest__Output as _wms_realtime_v1_AuthorizeChannelRequest__Output } from './wms/realtime/v1/AuthorizeChannelRequest.ts';
import type { ChannelAuthorization as _wms_realtime_v1_ChannelAuthorization, ChannelAuthorization__Output as _wms_realtime_v1_ChannelAuthorization__Output } from './wms/realtime/v1/ChannelAuthorization.ts';
import type { DeliveredEvent as _wms_realtime_v1_DeliveredEvent, DeliveredEvent__Output as _wms_realtime_v1_DeliveredEvent__Output } from './wms/realtime/v1/DeliveredEvent.ts';
import type { EventPage as _wms_realtime_v1_EventPage, EventPage__Output as _wms_realtime_v1_EventPage__Output } from './wms/realtime/v1/EventPage.ts';
import type { ListEventsRequest as _wms_realtime_v1_ListEventsRequest, ListEventsRequest__Output as _wms_realtime_v1_ListEventsRequest__Output } from './wms/realtime/v1/ListEventsRequest.ts';
import type { OutboxEvent as _wms_realtime_v1_OutboxEvent, OutboxEvent__Output as _wms_realtime_v1_OutboxEvent__Output } from './wms/realtime/v1/OutboxEvent.ts';
import type { PresenceList as _wms_realtime_v1_PresenceList, PresenceList__Output as _wms_realtime_v1_PresenceList__Output } from './wms/realtime/v1/PresenceList.ts';
import type { PublishEventsRequest as _wms_realtime_v1_PublishEventsRequest, PublishEventsRequest__Output as _wms_realtime_v1_PublishEventsRequest__Output } from './wms/realtime/v1/PublishEventsRequest.ts';
import type { PublishEventsResponse as _wms_realtime_v1_PublishEventsResponse, PublishEventsResponse__Output as _wms_realtime_v1_PublishEventsResponse__Output } from './wms/realtime/v1/PublishEventsResponse.ts';
import type { RealtimeConfig as _wms_realtime_v1_RealtimeConfig, RealtimeConfig__Output as _wms_realtime_v1_RealtimeConfig__Output } from './wms/realtime/v1/RealtimeConfig.ts';
import type { RealtimeServiceClient as _wms_realtime_v1_RealtimeServiceClient, RealtimeServiceDefinition as _wms_realtime_v1_RealtimeServiceDefinition } from './wms/realtime/v1/RealtimeService.ts';
import type { UserAuthorization as _wms_realtime_v1_UserAuthorization, UserAuthorization__Output as _wms_realtime_v1_UserAuthorization__Output } from './wms/realtime/v1/UserAuthorization.ts';

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
    realtime: {
      v1: {
        AcceptWebhookRequest: MessageTypeDefinition<_wms_realtime_v1_AcceptWebhookRequest, _wms_realtime_v1_AcceptWebhookRequest__Output>
        ActorPresence: MessageTypeDefinition<_wms_realtime_v1_ActorPresence, _wms_realtime_v1_ActorPresence__Output>
        AuthenticateUserRequest: MessageTypeDefinition<_wms_realtime_v1_AuthenticateUserRequest, _wms_realtime_v1_AuthenticateUserRequest__Output>
        AuthorizeChannelRequest: MessageTypeDefinition<_wms_realtime_v1_AuthorizeChannelRequest, _wms_realtime_v1_AuthorizeChannelRequest__Output>
        ChannelAuthorization: MessageTypeDefinition<_wms_realtime_v1_ChannelAuthorization, _wms_realtime_v1_ChannelAuthorization__Output>
        DeliveredEvent: MessageTypeDefinition<_wms_realtime_v1_DeliveredEvent, _wms_realtime_v1_DeliveredEvent__Output>
        EventPage: MessageTypeDefinition<_wms_realtime_v1_EventPage, _wms_realtime_v1_EventPage__Output>
        ListEventsRequest: MessageTypeDefinition<_wms_realtime_v1_ListEventsRequest, _wms_realtime_v1_ListEventsRequest__Output>
        OutboxEvent: MessageTypeDefinition<_wms_realtime_v1_OutboxEvent, _wms_realtime_v1_OutboxEvent__Output>
        PresenceList: MessageTypeDefinition<_wms_realtime_v1_PresenceList, _wms_realtime_v1_PresenceList__Output>
        PublishEventsRequest: MessageTypeDefinition<_wms_realtime_v1_PublishEventsRequest, _wms_realtime_v1_PublishEventsRequest__Output>
        PublishEventsResponse: MessageTypeDefinition<_wms_realtime_v1_PublishEventsResponse, _wms_realtime_v1_PublishEventsResponse__Output>
        RealtimeConfig: MessageTypeDefinition<_wms_realtime_v1_RealtimeConfig, _wms_realtime_v1_RealtimeConfig__Output>
        RealtimeService: SubtypeConstructor<typeof grpc.Client, _wms_realtime_v1_RealtimeServiceClient> & { service: _wms_realtime_v1_RealtimeServiceDefinition }
        UserAuthorization: MessageTypeDefinition<_wms_realtime_v1_UserAuthorization, _wms_realtime_v1_UserAuthorization__Output>
      }
    }
  }
}

