// Original file: messaging/v1/messaging.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from '../../../wms/messaging/v1/Channel.ts';
import type { CreateChannelRequest as _wms_messaging_v1_CreateChannelRequest, CreateChannelRequest__Output as _wms_messaging_v1_CreateChannelRequest__Output } from '../../../wms/messaging/v1/CreateChannelRequest.ts';
import type { GetChannelRequest as _wms_messaging_v1_GetChannelRequest, GetChannelRequest__Output as _wms_messaging_v1_GetChannelRequest__Output } from '../../../wms/messaging/v1/GetChannelRequest.ts';
import type { ListChannelsRequest as _wms_messaging_v1_ListChannelsRequest, ListChannelsRequest__Output as _wms_messaging_v1_ListChannelsRequest__Output } from '../../../wms/messaging/v1/ListChannelsRequest.ts';
import type { ListChannelsResponse as _wms_messaging_v1_ListChannelsResponse, ListChannelsResponse__Output as _wms_messaging_v1_ListChannelsResponse__Output } from '../../../wms/messaging/v1/ListChannelsResponse.ts';

export interface MessagingServiceClient extends grpc.Client {
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface MessagingServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateChannel: grpc.handleUnaryCall<_wms_messaging_v1_CreateChannelRequest__Output, _wms_messaging_v1_Channel>;
  
  GetChannel: grpc.handleUnaryCall<_wms_messaging_v1_GetChannelRequest__Output, _wms_messaging_v1_Channel>;
  
  ListChannels: grpc.handleUnaryCall<_wms_messaging_v1_ListChannelsRequest__Output, _wms_messaging_v1_ListChannelsResponse>;
  
}

export interface MessagingServiceDefinition extends grpc.ServiceDefinition {
  CreateChannel: MethodDefinition<_wms_messaging_v1_CreateChannelRequest, _wms_messaging_v1_Channel, _wms_messaging_v1_CreateChannelRequest__Output, _wms_messaging_v1_Channel__Output>
  GetChannel: MethodDefinition<_wms_messaging_v1_GetChannelRequest, _wms_messaging_v1_Channel, _wms_messaging_v1_GetChannelRequest__Output, _wms_messaging_v1_Channel__Output>
  ListChannels: MethodDefinition<_wms_messaging_v1_ListChannelsRequest, _wms_messaging_v1_ListChannelsResponse, _wms_messaging_v1_ListChannelsRequest__Output, _wms_messaging_v1_ListChannelsResponse__Output>
}
