import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from './wms/messaging/v1/Channel.ts';
import type { CreateChannelRequest as _wms_messaging_v1_CreateChannelRequest, CreateChannelRequest__Output as _wms_messaging_v1_CreateChannelRequest__Output } from './wms/messaging/v1/CreateChannelRequest.ts';
import type { GetChannelRequest as _wms_messaging_v1_GetChannelRequest, GetChannelRequest__Output as _wms_messaging_v1_GetChannelRequest__Output } from './wms/messaging/v1/GetChannelRequest.ts';
import type { ListChannelsRequest as _wms_messaging_v1_ListChannelsRequest, ListChannelsRequest__Output as _wms_messaging_v1_ListChannelsRequest__Output } from './wms/messaging/v1/ListChannelsRequest.ts';
import type { ListChannelsResponse as _wms_messaging_v1_ListChannelsResponse, ListChannelsResponse__Output as _wms_messaging_v1_ListChannelsResponse__Output } from './wms/messaging/v1/ListChannelsResponse.ts';
import type { MessagingServiceClient as _wms_messaging_v1_MessagingServiceClient, MessagingServiceDefinition as _wms_messaging_v1_MessagingServiceDefinition } from './wms/messaging/v1/MessagingService.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  wms: {
    messaging: {
      v1: {
        Channel: MessageTypeDefinition<_wms_messaging_v1_Channel, _wms_messaging_v1_Channel__Output>
        CreateChannelRequest: MessageTypeDefinition<_wms_messaging_v1_CreateChannelRequest, _wms_messaging_v1_CreateChannelRequest__Output>
        GetChannelRequest: MessageTypeDefinition<_wms_messaging_v1_GetChannelRequest, _wms_messaging_v1_GetChannelRequest__Output>
        ListChannelsRequest: MessageTypeDefinition<_wms_messaging_v1_ListChannelsRequest, _wms_messaging_v1_ListChannelsRequest__Output>
        ListChannelsResponse: MessageTypeDefinition<_wms_messaging_v1_ListChannelsResponse, _wms_messaging_v1_ListChannelsResponse__Output>
        MessagingService: SubtypeConstructor<typeof grpc.Client, _wms_messaging_v1_MessagingServiceClient> & { service: _wms_messaging_v1_MessagingServiceDefinition }
      }
    }
  }
}

