// Original file: messaging/v1/messaging.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdmitAgentRequest as _wms_messaging_v1_AdmitAgentRequest, AdmitAgentRequest__Output as _wms_messaging_v1_AdmitAgentRequest__Output } from '../../../wms/messaging/v1/AdmitAgentRequest.ts';
import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from '../../../wms/messaging/v1/Channel.ts';
import type { ChannelMember as _wms_messaging_v1_ChannelMember, ChannelMember__Output as _wms_messaging_v1_ChannelMember__Output } from '../../../wms/messaging/v1/ChannelMember.ts';
import type { ChannelMemberPage as _wms_messaging_v1_ChannelMemberPage, ChannelMemberPage__Output as _wms_messaging_v1_ChannelMemberPage__Output } from '../../../wms/messaging/v1/ChannelMemberPage.ts';
import type { ChannelMemberRef as _wms_messaging_v1_ChannelMemberRef, ChannelMemberRef__Output as _wms_messaging_v1_ChannelMemberRef__Output } from '../../../wms/messaging/v1/ChannelMemberRef.ts';
import type { ConversationIds as _wms_messaging_v1_ConversationIds, ConversationIds__Output as _wms_messaging_v1_ConversationIds__Output } from '../../../wms/messaging/v1/ConversationIds.ts';
import type { ConversationPage as _wms_messaging_v1_ConversationPage, ConversationPage__Output as _wms_messaging_v1_ConversationPage__Output } from '../../../wms/messaging/v1/ConversationPage.ts';
import type { ConversationRef as _wms_messaging_v1_ConversationRef, ConversationRef__Output as _wms_messaging_v1_ConversationRef__Output } from '../../../wms/messaging/v1/ConversationRef.ts';
import type { CreateChannelRequest as _wms_messaging_v1_CreateChannelRequest, CreateChannelRequest__Output as _wms_messaging_v1_CreateChannelRequest__Output } from '../../../wms/messaging/v1/CreateChannelRequest.ts';
import type { CreateMessageRequest as _wms_messaging_v1_CreateMessageRequest, CreateMessageRequest__Output as _wms_messaging_v1_CreateMessageRequest__Output } from '../../../wms/messaging/v1/CreateMessageRequest.ts';
import type { DirectConversation as _wms_messaging_v1_DirectConversation, DirectConversation__Output as _wms_messaging_v1_DirectConversation__Output } from '../../../wms/messaging/v1/DirectConversation.ts';
import type { Empty as _wms_common_v1_Empty, Empty__Output as _wms_common_v1_Empty__Output } from '../../../wms/common/v1/Empty.ts';
import type { GetChannelRequest as _wms_messaging_v1_GetChannelRequest, GetChannelRequest__Output as _wms_messaging_v1_GetChannelRequest__Output } from '../../../wms/messaging/v1/GetChannelRequest.ts';
import type { JsonBody as _wms_common_v1_JsonBody, JsonBody__Output as _wms_common_v1_JsonBody__Output } from '../../../wms/common/v1/JsonBody.ts';
import type { ListChannelMembersRequest as _wms_messaging_v1_ListChannelMembersRequest, ListChannelMembersRequest__Output as _wms_messaging_v1_ListChannelMembersRequest__Output } from '../../../wms/messaging/v1/ListChannelMembersRequest.ts';
import type { ListChannelsRequest as _wms_messaging_v1_ListChannelsRequest, ListChannelsRequest__Output as _wms_messaging_v1_ListChannelsRequest__Output } from '../../../wms/messaging/v1/ListChannelsRequest.ts';
import type { ListChannelsResponse as _wms_messaging_v1_ListChannelsResponse, ListChannelsResponse__Output as _wms_messaging_v1_ListChannelsResponse__Output } from '../../../wms/messaging/v1/ListChannelsResponse.ts';
import type { ListConversationsRequest as _wms_messaging_v1_ListConversationsRequest, ListConversationsRequest__Output as _wms_messaging_v1_ListConversationsRequest__Output } from '../../../wms/messaging/v1/ListConversationsRequest.ts';
import type { ListMessagesRequest as _wms_messaging_v1_ListMessagesRequest, ListMessagesRequest__Output as _wms_messaging_v1_ListMessagesRequest__Output } from '../../../wms/messaging/v1/ListMessagesRequest.ts';
import type { ListSavedMessagesRequest as _wms_messaging_v1_ListSavedMessagesRequest, ListSavedMessagesRequest__Output as _wms_messaging_v1_ListSavedMessagesRequest__Output } from '../../../wms/messaging/v1/ListSavedMessagesRequest.ts';
import type { ListThreadsRequest as _wms_messaging_v1_ListThreadsRequest, ListThreadsRequest__Output as _wms_messaging_v1_ListThreadsRequest__Output } from '../../../wms/messaging/v1/ListThreadsRequest.ts';
import type { Message as _wms_messaging_v1_Message, Message__Output as _wms_messaging_v1_Message__Output } from '../../../wms/messaging/v1/Message.ts';
import type { MessageHistory as _wms_messaging_v1_MessageHistory, MessageHistory__Output as _wms_messaging_v1_MessageHistory__Output } from '../../../wms/messaging/v1/MessageHistory.ts';
import type { MessageReactions as _wms_messaging_v1_MessageReactions, MessageReactions__Output as _wms_messaging_v1_MessageReactions__Output } from '../../../wms/messaging/v1/MessageReactions.ts';
import type { MessageRef as _wms_messaging_v1_MessageRef, MessageRef__Output as _wms_messaging_v1_MessageRef__Output } from '../../../wms/messaging/v1/MessageRef.ts';
import type { OpenDirectConversationRequest as _wms_messaging_v1_OpenDirectConversationRequest, OpenDirectConversationRequest__Output as _wms_messaging_v1_OpenDirectConversationRequest__Output } from '../../../wms/messaging/v1/OpenDirectConversationRequest.ts';
import type { PurgeProgress as _wms_common_v1_PurgeProgress, PurgeProgress__Output as _wms_common_v1_PurgeProgress__Output } from '../../../wms/common/v1/PurgeProgress.ts';
import type { ReactionRequest as _wms_messaging_v1_ReactionRequest, ReactionRequest__Output as _wms_messaging_v1_ReactionRequest__Output } from '../../../wms/messaging/v1/ReactionRequest.ts';
import type { ReadState as _wms_messaging_v1_ReadState, ReadState__Output as _wms_messaging_v1_ReadState__Output } from '../../../wms/messaging/v1/ReadState.ts';
import type { SavedMessageState as _wms_messaging_v1_SavedMessageState, SavedMessageState__Output as _wms_messaging_v1_SavedMessageState__Output } from '../../../wms/messaging/v1/SavedMessageState.ts';
import type { SearchMessagesRequest as _wms_messaging_v1_SearchMessagesRequest, SearchMessagesRequest__Output as _wms_messaging_v1_SearchMessagesRequest__Output } from '../../../wms/messaging/v1/SearchMessagesRequest.ts';
import type { ThreadRef as _wms_messaging_v1_ThreadRef, ThreadRef__Output as _wms_messaging_v1_ThreadRef__Output } from '../../../wms/messaging/v1/ThreadRef.ts';
import type { UpdateChannelRequest as _wms_messaging_v1_UpdateChannelRequest, UpdateChannelRequest__Output as _wms_messaging_v1_UpdateChannelRequest__Output } from '../../../wms/messaging/v1/UpdateChannelRequest.ts';
import type { UpdateConversationReadStateRequest as _wms_messaging_v1_UpdateConversationReadStateRequest, UpdateConversationReadStateRequest__Output as _wms_messaging_v1_UpdateConversationReadStateRequest__Output } from '../../../wms/messaging/v1/UpdateConversationReadStateRequest.ts';
import type { UpdateMessageRequest as _wms_messaging_v1_UpdateMessageRequest, UpdateMessageRequest__Output as _wms_messaging_v1_UpdateMessageRequest__Output } from '../../../wms/messaging/v1/UpdateMessageRequest.ts';
import type { UpdateThreadReadStateRequest as _wms_messaging_v1_UpdateThreadReadStateRequest, UpdateThreadReadStateRequest__Output as _wms_messaging_v1_UpdateThreadReadStateRequest__Output } from '../../../wms/messaging/v1/UpdateThreadReadStateRequest.ts';
import type { UpdateThreadSubscriptionRequest as _wms_messaging_v1_UpdateThreadSubscriptionRequest, UpdateThreadSubscriptionRequest__Output as _wms_messaging_v1_UpdateThreadSubscriptionRequest__Output } from '../../../wms/messaging/v1/UpdateThreadSubscriptionRequest.ts';
import type { WorkspacePurge as _wms_common_v1_WorkspacePurge, WorkspacePurge__Output as _wms_common_v1_WorkspacePurge__Output } from '../../../wms/common/v1/WorkspacePurge.ts';

export interface MessagingServiceClient extends grpc.Client {
  AddChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  AddChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  AddChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  AddChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  addChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  addChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  addChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  addChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMember__Output>): grpc.ClientUnaryCall;
  
  AddReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  AddReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  AddReaction(argument: _wms_messaging_v1_ReactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  AddReaction(argument: _wms_messaging_v1_ReactionRequest, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  addReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  addReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  addReaction(argument: _wms_messaging_v1_ReactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  addReaction(argument: _wms_messaging_v1_ReactionRequest, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  
  AdmitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AdmitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AdmitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AdmitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  admitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  admitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  admitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  admitAgent(argument: _wms_messaging_v1_AdmitAgentRequest, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  AnnounceAssetsReady(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AnnounceAssetsReady(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AnnounceAssetsReady(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  AnnounceAssetsReady(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  announceAssetsReady(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  announceAssetsReady(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  announceAssetsReady(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  announceAssetsReady(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  CreateChannel(argument: _wms_messaging_v1_CreateChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  createChannel(argument: _wms_messaging_v1_CreateChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  
  CreateMessage(argument: _wms_messaging_v1_CreateMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  CreateMessage(argument: _wms_messaging_v1_CreateMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  CreateMessage(argument: _wms_messaging_v1_CreateMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  CreateMessage(argument: _wms_messaging_v1_CreateMessageRequest, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  createMessage(argument: _wms_messaging_v1_CreateMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  createMessage(argument: _wms_messaging_v1_CreateMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  createMessage(argument: _wms_messaging_v1_CreateMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  createMessage(argument: _wms_messaging_v1_CreateMessageRequest, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  
  DeleteMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  DeleteMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  deleteMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  GetChannel(argument: _wms_messaging_v1_GetChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  
  GetConversationReadState(argument: _wms_messaging_v1_ConversationRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  GetConversationReadState(argument: _wms_messaging_v1_ConversationRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  GetConversationReadState(argument: _wms_messaging_v1_ConversationRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  GetConversationReadState(argument: _wms_messaging_v1_ConversationRef, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getConversationReadState(argument: _wms_messaging_v1_ConversationRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getConversationReadState(argument: _wms_messaging_v1_ConversationRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getConversationReadState(argument: _wms_messaging_v1_ConversationRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getConversationReadState(argument: _wms_messaging_v1_ConversationRef, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  
  GetMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  GetMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  GetMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  GetMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  getMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  getMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  getMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  getMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  
  GetMessageHistory(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  GetMessageHistory(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  GetMessageHistory(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  GetMessageHistory(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  getMessageHistory(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  getMessageHistory(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  getMessageHistory(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  getMessageHistory(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_MessageHistory__Output>): grpc.ClientUnaryCall;
  
  GetThreadReadState(argument: _wms_messaging_v1_ThreadRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  GetThreadReadState(argument: _wms_messaging_v1_ThreadRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  GetThreadReadState(argument: _wms_messaging_v1_ThreadRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  GetThreadReadState(argument: _wms_messaging_v1_ThreadRef, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getThreadReadState(argument: _wms_messaging_v1_ThreadRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getThreadReadState(argument: _wms_messaging_v1_ThreadRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getThreadReadState(argument: _wms_messaging_v1_ThreadRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  getThreadReadState(argument: _wms_messaging_v1_ThreadRef, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  
  ListChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  ListChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  ListChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  ListChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  listChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  listChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  listChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  listChannelMembers(argument: _wms_messaging_v1_ListChannelMembersRequest, callback: grpc.requestCallback<_wms_messaging_v1_ChannelMemberPage__Output>): grpc.ClientUnaryCall;
  
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  ListChannels(argument: _wms_messaging_v1_ListChannelsRequest, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  listChannels(argument: _wms_messaging_v1_ListChannelsRequest, callback: grpc.requestCallback<_wms_messaging_v1_ListChannelsResponse__Output>): grpc.ClientUnaryCall;
  
  ListConversations(argument: _wms_messaging_v1_ListConversationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  ListConversations(argument: _wms_messaging_v1_ListConversationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  ListConversations(argument: _wms_messaging_v1_ListConversationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  ListConversations(argument: _wms_messaging_v1_ListConversationsRequest, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _wms_messaging_v1_ListConversationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _wms_messaging_v1_ListConversationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _wms_messaging_v1_ListConversationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  listConversations(argument: _wms_messaging_v1_ListConversationsRequest, callback: grpc.requestCallback<_wms_messaging_v1_ConversationPage__Output>): grpc.ClientUnaryCall;
  
  ListMessages(argument: _wms_messaging_v1_ListMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListMessages(argument: _wms_messaging_v1_ListMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListMessages(argument: _wms_messaging_v1_ListMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListMessages(argument: _wms_messaging_v1_ListMessagesRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listMessages(argument: _wms_messaging_v1_ListMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listMessages(argument: _wms_messaging_v1_ListMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listMessages(argument: _wms_messaging_v1_ListMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listMessages(argument: _wms_messaging_v1_ListMessagesRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  
  ListSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listSavedMessages(argument: _wms_messaging_v1_ListSavedMessagesRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  
  ListThreads(argument: _wms_messaging_v1_ListThreadsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListThreads(argument: _wms_messaging_v1_ListThreadsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListThreads(argument: _wms_messaging_v1_ListThreadsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  ListThreads(argument: _wms_messaging_v1_ListThreadsRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listThreads(argument: _wms_messaging_v1_ListThreadsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listThreads(argument: _wms_messaging_v1_ListThreadsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listThreads(argument: _wms_messaging_v1_ListThreadsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  listThreads(argument: _wms_messaging_v1_ListThreadsRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  
  OpenDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  OpenDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  OpenDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  OpenDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  openDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  openDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  openDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  openDirectConversation(argument: _wms_messaging_v1_OpenDirectConversationRequest, callback: grpc.requestCallback<_wms_messaging_v1_DirectConversation__Output>): grpc.ClientUnaryCall;
  
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  PurgeWorkspace(argument: _wms_common_v1_WorkspacePurge, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  purgeWorkspace(argument: _wms_common_v1_WorkspacePurge, callback: grpc.requestCallback<_wms_common_v1_PurgeProgress__Output>): grpc.ClientUnaryCall;
  
  ReadableConversations(argument: _wms_messaging_v1_ConversationIds, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  ReadableConversations(argument: _wms_messaging_v1_ConversationIds, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  ReadableConversations(argument: _wms_messaging_v1_ConversationIds, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  ReadableConversations(argument: _wms_messaging_v1_ConversationIds, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  readableConversations(argument: _wms_messaging_v1_ConversationIds, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  readableConversations(argument: _wms_messaging_v1_ConversationIds, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  readableConversations(argument: _wms_messaging_v1_ConversationIds, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  readableConversations(argument: _wms_messaging_v1_ConversationIds, callback: grpc.requestCallback<_wms_messaging_v1_ConversationIds__Output>): grpc.ClientUnaryCall;
  
  RemoveChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  RemoveChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  removeChannelMember(argument: _wms_messaging_v1_ChannelMemberRef, callback: grpc.requestCallback<_wms_common_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RemoveReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  RemoveReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  RemoveReaction(argument: _wms_messaging_v1_ReactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  RemoveReaction(argument: _wms_messaging_v1_ReactionRequest, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  removeReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  removeReaction(argument: _wms_messaging_v1_ReactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  removeReaction(argument: _wms_messaging_v1_ReactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  removeReaction(argument: _wms_messaging_v1_ReactionRequest, callback: grpc.requestCallback<_wms_messaging_v1_MessageReactions__Output>): grpc.ClientUnaryCall;
  
  SaveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  SaveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  SaveMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  SaveMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  saveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  saveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  saveMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  saveMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  
  SearchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  SearchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  SearchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  SearchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  searchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  searchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  searchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  searchMessages(argument: _wms_messaging_v1_SearchMessagesRequest, callback: grpc.requestCallback<_wms_common_v1_JsonBody__Output>): grpc.ClientUnaryCall;
  
  UnsaveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  UnsaveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  UnsaveMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  UnsaveMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  unsaveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  unsaveMessage(argument: _wms_messaging_v1_MessageRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  unsaveMessage(argument: _wms_messaging_v1_MessageRef, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  unsaveMessage(argument: _wms_messaging_v1_MessageRef, callback: grpc.requestCallback<_wms_messaging_v1_SavedMessageState__Output>): grpc.ClientUnaryCall;
  
  UpdateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  UpdateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  UpdateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  UpdateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  updateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  updateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  updateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  updateChannel(argument: _wms_messaging_v1_UpdateChannelRequest, callback: grpc.requestCallback<_wms_messaging_v1_Channel__Output>): grpc.ClientUnaryCall;
  
  UpdateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateConversationReadState(argument: _wms_messaging_v1_UpdateConversationReadStateRequest, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  
  UpdateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  UpdateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  UpdateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  UpdateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  updateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  updateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  updateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  updateMessage(argument: _wms_messaging_v1_UpdateMessageRequest, callback: grpc.requestCallback<_wms_messaging_v1_Message__Output>): grpc.ClientUnaryCall;
  
  UpdateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadReadState(argument: _wms_messaging_v1_UpdateThreadReadStateRequest, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  
  UpdateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  UpdateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  updateThreadSubscription(argument: _wms_messaging_v1_UpdateThreadSubscriptionRequest, callback: grpc.requestCallback<_wms_messaging_v1_ReadState__Output>): grpc.ClientUnaryCall;
  
}

export interface MessagingServiceHandlers extends grpc.UntypedServiceImplementation {
  AddChannelMember: grpc.handleUnaryCall<_wms_messaging_v1_ChannelMemberRef__Output, _wms_messaging_v1_ChannelMember>;
  
  AddReaction: grpc.handleUnaryCall<_wms_messaging_v1_ReactionRequest__Output, _wms_messaging_v1_MessageReactions>;
  
  AdmitAgent: grpc.handleUnaryCall<_wms_messaging_v1_AdmitAgentRequest__Output, _wms_common_v1_Empty>;
  
  AnnounceAssetsReady: grpc.handleUnaryCall<_wms_messaging_v1_MessageRef__Output, _wms_common_v1_Empty>;
  
  CreateChannel: grpc.handleUnaryCall<_wms_messaging_v1_CreateChannelRequest__Output, _wms_messaging_v1_Channel>;
  
  CreateMessage: grpc.handleUnaryCall<_wms_messaging_v1_CreateMessageRequest__Output, _wms_messaging_v1_Message>;
  
  DeleteMessage: grpc.handleUnaryCall<_wms_messaging_v1_MessageRef__Output, _wms_common_v1_Empty>;
  
  GetChannel: grpc.handleUnaryCall<_wms_messaging_v1_GetChannelRequest__Output, _wms_messaging_v1_Channel>;
  
  GetConversationReadState: grpc.handleUnaryCall<_wms_messaging_v1_ConversationRef__Output, _wms_messaging_v1_ReadState>;
  
  GetMessage: grpc.handleUnaryCall<_wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_Message>;
  
  GetMessageHistory: grpc.handleUnaryCall<_wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_MessageHistory>;
  
  GetThreadReadState: grpc.handleUnaryCall<_wms_messaging_v1_ThreadRef__Output, _wms_messaging_v1_ReadState>;
  
  ListChannelMembers: grpc.handleUnaryCall<_wms_messaging_v1_ListChannelMembersRequest__Output, _wms_messaging_v1_ChannelMemberPage>;
  
  ListChannels: grpc.handleUnaryCall<_wms_messaging_v1_ListChannelsRequest__Output, _wms_messaging_v1_ListChannelsResponse>;
  
  ListConversations: grpc.handleUnaryCall<_wms_messaging_v1_ListConversationsRequest__Output, _wms_messaging_v1_ConversationPage>;
  
  ListMessages: grpc.handleUnaryCall<_wms_messaging_v1_ListMessagesRequest__Output, _wms_common_v1_JsonBody>;
  
  ListSavedMessages: grpc.handleUnaryCall<_wms_messaging_v1_ListSavedMessagesRequest__Output, _wms_common_v1_JsonBody>;
  
  ListThreads: grpc.handleUnaryCall<_wms_messaging_v1_ListThreadsRequest__Output, _wms_common_v1_JsonBody>;
  
  OpenDirectConversation: grpc.handleUnaryCall<_wms_messaging_v1_OpenDirectConversationRequest__Output, _wms_messaging_v1_DirectConversation>;
  
  PurgeWorkspace: grpc.handleUnaryCall<_wms_common_v1_WorkspacePurge__Output, _wms_common_v1_PurgeProgress>;
  
  ReadableConversations: grpc.handleUnaryCall<_wms_messaging_v1_ConversationIds__Output, _wms_messaging_v1_ConversationIds>;
  
  RemoveChannelMember: grpc.handleUnaryCall<_wms_messaging_v1_ChannelMemberRef__Output, _wms_common_v1_Empty>;
  
  RemoveReaction: grpc.handleUnaryCall<_wms_messaging_v1_ReactionRequest__Output, _wms_messaging_v1_MessageReactions>;
  
  SaveMessage: grpc.handleUnaryCall<_wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_SavedMessageState>;
  
  SearchMessages: grpc.handleUnaryCall<_wms_messaging_v1_SearchMessagesRequest__Output, _wms_common_v1_JsonBody>;
  
  UnsaveMessage: grpc.handleUnaryCall<_wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_SavedMessageState>;
  
  UpdateChannel: grpc.handleUnaryCall<_wms_messaging_v1_UpdateChannelRequest__Output, _wms_messaging_v1_Channel>;
  
  UpdateConversationReadState: grpc.handleUnaryCall<_wms_messaging_v1_UpdateConversationReadStateRequest__Output, _wms_messaging_v1_ReadState>;
  
  UpdateMessage: grpc.handleUnaryCall<_wms_messaging_v1_UpdateMessageRequest__Output, _wms_messaging_v1_Message>;
  
  UpdateThreadReadState: grpc.handleUnaryCall<_wms_messaging_v1_UpdateThreadReadStateRequest__Output, _wms_messaging_v1_ReadState>;
  
  UpdateThreadSubscription: grpc.handleUnaryCall<_wms_messaging_v1_UpdateThreadSubscriptionRequest__Output, _wms_messaging_v1_ReadState>;
  
}

export interface MessagingServiceDefinition extends grpc.ServiceDefinition {
  AddChannelMember: MethodDefinition<_wms_messaging_v1_ChannelMemberRef, _wms_messaging_v1_ChannelMember, _wms_messaging_v1_ChannelMemberRef__Output, _wms_messaging_v1_ChannelMember__Output>
  AddReaction: MethodDefinition<_wms_messaging_v1_ReactionRequest, _wms_messaging_v1_MessageReactions, _wms_messaging_v1_ReactionRequest__Output, _wms_messaging_v1_MessageReactions__Output>
  AdmitAgent: MethodDefinition<_wms_messaging_v1_AdmitAgentRequest, _wms_common_v1_Empty, _wms_messaging_v1_AdmitAgentRequest__Output, _wms_common_v1_Empty__Output>
  AnnounceAssetsReady: MethodDefinition<_wms_messaging_v1_MessageRef, _wms_common_v1_Empty, _wms_messaging_v1_MessageRef__Output, _wms_common_v1_Empty__Output>
  CreateChannel: MethodDefinition<_wms_messaging_v1_CreateChannelRequest, _wms_messaging_v1_Channel, _wms_messaging_v1_CreateChannelRequest__Output, _wms_messaging_v1_Channel__Output>
  CreateMessage: MethodDefinition<_wms_messaging_v1_CreateMessageRequest, _wms_messaging_v1_Message, _wms_messaging_v1_CreateMessageRequest__Output, _wms_messaging_v1_Message__Output>
  DeleteMessage: MethodDefinition<_wms_messaging_v1_MessageRef, _wms_common_v1_Empty, _wms_messaging_v1_MessageRef__Output, _wms_common_v1_Empty__Output>
  GetChannel: MethodDefinition<_wms_messaging_v1_GetChannelRequest, _wms_messaging_v1_Channel, _wms_messaging_v1_GetChannelRequest__Output, _wms_messaging_v1_Channel__Output>
  GetConversationReadState: MethodDefinition<_wms_messaging_v1_ConversationRef, _wms_messaging_v1_ReadState, _wms_messaging_v1_ConversationRef__Output, _wms_messaging_v1_ReadState__Output>
  GetMessage: MethodDefinition<_wms_messaging_v1_MessageRef, _wms_messaging_v1_Message, _wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_Message__Output>
  GetMessageHistory: MethodDefinition<_wms_messaging_v1_MessageRef, _wms_messaging_v1_MessageHistory, _wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_MessageHistory__Output>
  GetThreadReadState: MethodDefinition<_wms_messaging_v1_ThreadRef, _wms_messaging_v1_ReadState, _wms_messaging_v1_ThreadRef__Output, _wms_messaging_v1_ReadState__Output>
  ListChannelMembers: MethodDefinition<_wms_messaging_v1_ListChannelMembersRequest, _wms_messaging_v1_ChannelMemberPage, _wms_messaging_v1_ListChannelMembersRequest__Output, _wms_messaging_v1_ChannelMemberPage__Output>
  ListChannels: MethodDefinition<_wms_messaging_v1_ListChannelsRequest, _wms_messaging_v1_ListChannelsResponse, _wms_messaging_v1_ListChannelsRequest__Output, _wms_messaging_v1_ListChannelsResponse__Output>
  ListConversations: MethodDefinition<_wms_messaging_v1_ListConversationsRequest, _wms_messaging_v1_ConversationPage, _wms_messaging_v1_ListConversationsRequest__Output, _wms_messaging_v1_ConversationPage__Output>
  ListMessages: MethodDefinition<_wms_messaging_v1_ListMessagesRequest, _wms_common_v1_JsonBody, _wms_messaging_v1_ListMessagesRequest__Output, _wms_common_v1_JsonBody__Output>
  ListSavedMessages: MethodDefinition<_wms_messaging_v1_ListSavedMessagesRequest, _wms_common_v1_JsonBody, _wms_messaging_v1_ListSavedMessagesRequest__Output, _wms_common_v1_JsonBody__Output>
  ListThreads: MethodDefinition<_wms_messaging_v1_ListThreadsRequest, _wms_common_v1_JsonBody, _wms_messaging_v1_ListThreadsRequest__Output, _wms_common_v1_JsonBody__Output>
  OpenDirectConversation: MethodDefinition<_wms_messaging_v1_OpenDirectConversationRequest, _wms_messaging_v1_DirectConversation, _wms_messaging_v1_OpenDirectConversationRequest__Output, _wms_messaging_v1_DirectConversation__Output>
  PurgeWorkspace: MethodDefinition<_wms_common_v1_WorkspacePurge, _wms_common_v1_PurgeProgress, _wms_common_v1_WorkspacePurge__Output, _wms_common_v1_PurgeProgress__Output>
  ReadableConversations: MethodDefinition<_wms_messaging_v1_ConversationIds, _wms_messaging_v1_ConversationIds, _wms_messaging_v1_ConversationIds__Output, _wms_messaging_v1_ConversationIds__Output>
  RemoveChannelMember: MethodDefinition<_wms_messaging_v1_ChannelMemberRef, _wms_common_v1_Empty, _wms_messaging_v1_ChannelMemberRef__Output, _wms_common_v1_Empty__Output>
  RemoveReaction: MethodDefinition<_wms_messaging_v1_ReactionRequest, _wms_messaging_v1_MessageReactions, _wms_messaging_v1_ReactionRequest__Output, _wms_messaging_v1_MessageReactions__Output>
  SaveMessage: MethodDefinition<_wms_messaging_v1_MessageRef, _wms_messaging_v1_SavedMessageState, _wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_SavedMessageState__Output>
  SearchMessages: MethodDefinition<_wms_messaging_v1_SearchMessagesRequest, _wms_common_v1_JsonBody, _wms_messaging_v1_SearchMessagesRequest__Output, _wms_common_v1_JsonBody__Output>
  UnsaveMessage: MethodDefinition<_wms_messaging_v1_MessageRef, _wms_messaging_v1_SavedMessageState, _wms_messaging_v1_MessageRef__Output, _wms_messaging_v1_SavedMessageState__Output>
  UpdateChannel: MethodDefinition<_wms_messaging_v1_UpdateChannelRequest, _wms_messaging_v1_Channel, _wms_messaging_v1_UpdateChannelRequest__Output, _wms_messaging_v1_Channel__Output>
  UpdateConversationReadState: MethodDefinition<_wms_messaging_v1_UpdateConversationReadStateRequest, _wms_messaging_v1_ReadState, _wms_messaging_v1_UpdateConversationReadStateRequest__Output, _wms_messaging_v1_ReadState__Output>
  UpdateMessage: MethodDefinition<_wms_messaging_v1_UpdateMessageRequest, _wms_messaging_v1_Message, _wms_messaging_v1_UpdateMessageRequest__Output, _wms_messaging_v1_Message__Output>
  UpdateThreadReadState: MethodDefinition<_wms_messaging_v1_UpdateThreadReadStateRequest, _wms_messaging_v1_ReadState, _wms_messaging_v1_UpdateThreadReadStateRequest__Output, _wms_messaging_v1_ReadState__Output>
  UpdateThreadSubscription: MethodDefinition<_wms_messaging_v1_UpdateThreadSubscriptionRequest, _wms_messaging_v1_ReadState, _wms_messaging_v1_UpdateThreadSubscriptionRequest__Output, _wms_messaging_v1_ReadState__Output>
}
