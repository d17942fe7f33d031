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
import type { AdmitAgentRequest as _wms_messaging_v1_AdmitAgentRequest, AdmitAgentRequest__Output as _wms_messaging_v1_AdmitAgentRequest__Output } from './wms/messaging/v1/AdmitAgentRequest.ts';
import type { Channel as _wms_messaging_v1_Channel, Channel__Output as _wms_messaging_v1_Channel__Output } from './wms/messaging/v1/Channel.ts';
import type { ChannelMember as _wms_messaging_v1_ChannelMember, ChannelMember__Output as _wms_messaging_v1_ChannelMember__Output } from './wms/messaging/v1/ChannelMember.ts';
import type { ChannelMemberPage as _wms_messaging_v1_ChannelMemberPage, ChannelMemberPage__Output as _wms_messaging_v1_ChannelMemberPage__Output } from './wms/messaging/v1/ChannelMemberPage.ts';
import type { ChannelMemberRef as _wms_messaging_v1_ChannelMemberRef, ChannelMemberRef__Output as _wms_messaging_v1_ChannelMemberRef__Output } from './wms/messaging/v1/ChannelMemberRef.ts';
import type { ConversationIds as _wms_messaging_v1_ConversationIds, ConversationIds__Output as _wms_messaging_v1_ConversationIds__Output } from './wms/messaging/v1/ConversationIds.ts';
import type { ConversationPage as _wms_messaging_v1_ConversationPage, ConversationPage__Output as _wms_messaging_v1_ConversationPage__Output } from './wms/messaging/v1/ConversationPage.ts';
import type { ConversationRef as _wms_messaging_v1_ConversationRef, ConversationRef__Output as _wms_messaging_v1_ConversationRef__Output } from './wms/messaging/v1/ConversationRef.ts';
import type { ConversationSummary as _wms_messaging_v1_ConversationSummary, ConversationSummary__Output as _wms_messaging_v1_ConversationSummary__Output } from './wms/messaging/v1/ConversationSummary.ts';
import type { CreateChannelRequest as _wms_messaging_v1_CreateChannelRequest, CreateChannelRequest__Output as _wms_messaging_v1_CreateChannelRequest__Output } from './wms/messaging/v1/CreateChannelRequest.ts';
import type { CreateMessageRequest as _wms_messaging_v1_CreateMessageRequest, CreateMessageRequest__Output as _wms_messaging_v1_CreateMessageRequest__Output } from './wms/messaging/v1/CreateMessageRequest.ts';
import type { DirectConversation as _wms_messaging_v1_DirectConversation, DirectConversation__Output as _wms_messaging_v1_DirectConversation__Output } from './wms/messaging/v1/DirectConversation.ts';
import type { GetChannelRequest as _wms_messaging_v1_GetChannelRequest, GetChannelRequest__Output as _wms_messaging_v1_GetChannelRequest__Output } from './wms/messaging/v1/GetChannelRequest.ts';
import type { Highlight as _wms_messaging_v1_Highlight, Highlight__Output as _wms_messaging_v1_Highlight__Output } from './wms/messaging/v1/Highlight.ts';
import type { ListChannelMembersRequest as _wms_messaging_v1_ListChannelMembersRequest, ListChannelMembersRequest__Output as _wms_messaging_v1_ListChannelMembersRequest__Output } from './wms/messaging/v1/ListChannelMembersRequest.ts';
import type { ListChannelsRequest as _wms_messaging_v1_ListChannelsRequest, ListChannelsRequest__Output as _wms_messaging_v1_ListChannelsRequest__Output } from './wms/messaging/v1/ListChannelsRequest.ts';
import type { ListChannelsResponse as _wms_messaging_v1_ListChannelsResponse, ListChannelsResponse__Output as _wms_messaging_v1_ListChannelsResponse__Output } from './wms/messaging/v1/ListChannelsResponse.ts';
import type { ListConversationsRequest as _wms_messaging_v1_ListConversationsRequest, ListConversationsRequest__Output as _wms_messaging_v1_ListConversationsRequest__Output } from './wms/messaging/v1/ListConversationsRequest.ts';
import type { ListMessagesRequest as _wms_messaging_v1_ListMessagesRequest, ListMessagesRequest__Output as _wms_messaging_v1_ListMessagesRequest__Output } from './wms/messaging/v1/ListMessagesRequest.ts';
import type { ListSavedMessagesRequest as _wms_messaging_v1_ListSavedMessagesRequest, ListSavedMessagesRequest__Output as _wms_messaging_v1_ListSavedMessagesRequest__Output } from './wms/messaging/v1/ListSavedMessagesRequest.ts';
import type { ListThreadsRequest as _wms_messaging_v1_ListThreadsRequest, ListThreadsRequest__Output as _wms_messaging_v1_ListThreadsRequest__Output } from './wms/messaging/v1/ListThreadsRequest.ts';
import type { Message as _wms_messaging_v1_Message, Message__Output as _wms_messaging_v1_Message__Output } from './wms/messaging/v1/Message.ts';
import type { MessageChild as _wms_messaging_v1_MessageChild, MessageChild__Output as _wms_messaging_v1_MessageChild__Output } from './wms/messaging/v1/MessageChild.ts';
import type { MessageHistory as _wms_messaging_v1_MessageHistory, MessageHistory__Output as _wms_messaging_v1_MessageHistory__Output } from './wms/messaging/v1/MessageHistory.ts';
import type { MessagePage as _wms_messaging_v1_MessagePage, MessagePage__Output as _wms_messaging_v1_MessagePage__Output } from './wms/messaging/v1/MessagePage.ts';
import type { MessageReactions as _wms_messaging_v1_MessageReactions, MessageReactions__Output as _wms_messaging_v1_MessageReactions__Output } from './wms/messaging/v1/MessageReactions.ts';
import type { MessageRef as _wms_messaging_v1_MessageRef, MessageRef__Output as _wms_messaging_v1_MessageRef__Output } from './wms/messaging/v1/MessageRef.ts';
import type { MessageVersion as _wms_messaging_v1_MessageVersion, MessageVersion__Output as _wms_messaging_v1_MessageVersion__Output } from './wms/messaging/v1/MessageVersion.ts';
import type { MessagingServiceClient as _wms_messaging_v1_MessagingServiceClient, MessagingServiceDefinition as _wms_messaging_v1_MessagingServiceDefinition } from './wms/messaging/v1/MessagingService.ts';
import type { OpenDirectConversationRequest as _wms_messaging_v1_OpenDirectConversationRequest, OpenDirectConversationRequest__Output as _wms_messaging_v1_OpenDirectConversationRequest__Output } from './wms/messaging/v1/OpenDirectConversationRequest.ts';
import type { Reaction as _wms_messaging_v1_Reaction, Reaction__Output as _wms_messaging_v1_Reaction__Output } from './wms/messaging/v1/Reaction.ts';
import type { ReactionRequest as _wms_messaging_v1_ReactionRequest, ReactionRequest__Output as _wms_messaging_v1_ReactionRequest__Output } from './wms/messaging/v1/ReactionRequest.ts';
import type { ReadState as _wms_messaging_v1_ReadState, ReadState__Output as _wms_messaging_v1_ReadState__Output } from './wms/messaging/v1/ReadState.ts';
import type { SavedMessageState as _wms_messaging_v1_SavedMessageState, SavedMessageState__Output as _wms_messaging_v1_SavedMessageState__Output } from './wms/messaging/v1/SavedMessageState.ts';
import type { SearchHit as _wms_messaging_v1_SearchHit, SearchHit__Output as _wms_messaging_v1_SearchHit__Output } from './wms/messaging/v1/SearchHit.ts';
import type { SearchMessagesRequest as _wms_messaging_v1_SearchMessagesRequest, SearchMessagesRequest__Output as _wms_messaging_v1_SearchMessagesRequest__Output } from './wms/messaging/v1/SearchMessagesRequest.ts';
import type { SearchPage as _wms_messaging_v1_SearchPage, SearchPage__Output as _wms_messaging_v1_SearchPage__Output } from './wms/messaging/v1/SearchPage.ts';
import type { TextStyle as _wms_messaging_v1_TextStyle, TextStyle__Output as _wms_messaging_v1_TextStyle__Output } from './wms/messaging/v1/TextStyle.ts';
import type { Thread as _wms_messaging_v1_Thread, Thread__Output as _wms_messaging_v1_Thread__Output } from './wms/messaging/v1/Thread.ts';
import type { ThreadPage as _wms_messaging_v1_ThreadPage, ThreadPage__Output as _wms_messaging_v1_ThreadPage__Output } from './wms/messaging/v1/ThreadPage.ts';
import type { ThreadRef as _wms_messaging_v1_ThreadRef, ThreadRef__Output as _wms_messaging_v1_ThreadRef__Output } from './wms/messaging/v1/ThreadRef.ts';
import type { UpdateChannelRequest as _wms_messaging_v1_UpdateChannelRequest, UpdateChannelRequest__Output as _wms_messaging_v1_UpdateChannelRequest__Output } from './wms/messaging/v1/UpdateChannelRequest.ts';
import type { UpdateConversationReadStateRequest as _wms_messaging_v1_UpdateConversationReadStateRequest, UpdateConversationReadStateRequest__Output as _wms_messaging_v1_UpdateConversationReadStateRequest__Output } from './wms/messaging/v1/UpdateConversationReadStateRequest.ts';
import type { UpdateMessageRequest as _wms_messaging_v1_UpdateMessageRequest, UpdateMessageRequest__Output as _wms_messaging_v1_UpdateMessageRequest__Output } from './wms/messaging/v1/UpdateMessageRequest.ts';
import type { UpdateThreadReadStateRequest as _wms_messaging_v1_UpdateThreadReadStateRequest, UpdateThreadReadStateRequest__Output as _wms_messaging_v1_UpdateThreadReadStateRequest__Output } from './wms/messaging/v1/UpdateThreadReadStateRequest.ts';
import type { UpdateThreadSubscriptionRequest as _wms_messaging_v1_UpdateThreadSubscriptionRequest, UpdateThreadSubscriptionRequest__Output as _wms_messaging_v1_UpdateThreadSubscriptionRequest__Output } from './wms/messaging/v1/UpdateThreadSubscriptionRequest.ts';

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
    messaging: {
      v1: {
        AdmitAgentRequest: MessageTypeDefinition<_wms_messaging_v1_AdmitAgentRequest, _wms_messaging_v1_AdmitAgentRequest__Output>
        Channel: MessageTypeDefinition<_wms_messaging_v1_Channel, _wms_messaging_v1_Channel__Output>
        ChannelMember: MessageTypeDefinition<_wms_messaging_v1_ChannelMember, _wms_messaging_v1_ChannelMember__Output>
        ChannelMemberPage: MessageTypeDefinition<_wms_messaging_v1_ChannelMemberPage, _wms_messaging_v1_ChannelMemberPage__Output>
        ChannelMemberRef: MessageTypeDefinition<_wms_messaging_v1_ChannelMemberRef, _wms_messaging_v1_ChannelMemberRef__Output>
        ConversationIds: MessageTypeDefinition<_wms_messaging_v1_ConversationIds, _wms_messaging_v1_ConversationIds__Output>
        ConversationPage: MessageTypeDefinition<_wms_messaging_v1_ConversationPage, _wms_messaging_v1_ConversationPage__Output>
        ConversationRef: MessageTypeDefinition<_wms_messaging_v1_ConversationRef, _wms_messaging_v1_ConversationRef__Output>
        ConversationSummary: MessageTypeDefinition<_wms_messaging_v1_ConversationSummary, _wms_messaging_v1_ConversationSummary__Output>
        CreateChannelRequest: MessageTypeDefinition<_wms_messaging_v1_CreateChannelRequest, _wms_messaging_v1_CreateChannelRequest__Output>
        CreateMessageRequest: MessageTypeDefinition<_wms_messaging_v1_CreateMessageRequest, _wms_messaging_v1_CreateMessageRequest__Output>
        DirectConversation: MessageTypeDefinition<_wms_messaging_v1_DirectConversation, _wms_messaging_v1_DirectConversation__Output>
        GetChannelRequest: MessageTypeDefinition<_wms_messaging_v1_GetChannelRequest, _wms_messaging_v1_GetChannelRequest__Output>
        Highlight: MessageTypeDefinition<_wms_messaging_v1_Highlight, _wms_messaging_v1_Highlight__Output>
        ListChannelMembersRequest: MessageTypeDefinition<_wms_messaging_v1_ListChannelMembersRequest, _wms_messaging_v1_ListChannelMembersRequest__Output>
        ListChannelsRequest: MessageTypeDefinition<_wms_messaging_v1_ListChannelsRequest, _wms_messaging_v1_ListChannelsRequest__Output>
        ListChannelsResponse: MessageTypeDefinition<_wms_messaging_v1_ListChannelsResponse, _wms_messaging_v1_ListChannelsResponse__Output>
        ListConversationsRequest: MessageTypeDefinition<_wms_messaging_v1_ListConversationsRequest, _wms_messaging_v1_ListConversationsRequest__Output>
        ListMessagesRequest: MessageTypeDefinition<_wms_messaging_v1_ListMessagesRequest, _wms_messaging_v1_ListMessagesRequest__Output>
        ListSavedMessagesRequest: MessageTypeDefinition<_wms_messaging_v1_ListSavedMessagesRequest, _wms_messaging_v1_ListSavedMessagesRequest__Output>
        ListThreadsRequest: MessageTypeDefinition<_wms_messaging_v1_ListThreadsRequest, _wms_messaging_v1_ListThreadsRequest__Output>
        Message: MessageTypeDefinition<_wms_messaging_v1_Message, _wms_messaging_v1_Message__Output>
        MessageChild: MessageTypeDefinition<_wms_messaging_v1_MessageChild, _wms_messaging_v1_MessageChild__Output>
        MessageHistory: MessageTypeDefinition<_wms_messaging_v1_MessageHistory, _wms_messaging_v1_MessageHistory__Output>
        MessagePage: MessageTypeDefinition<_wms_messaging_v1_MessagePage, _wms_messaging_v1_MessagePage__Output>
        MessageReactions: MessageTypeDefinition<_wms_messaging_v1_MessageReactions, _wms_messaging_v1_MessageReactions__Output>
        MessageRef: MessageTypeDefinition<_wms_messaging_v1_MessageRef, _wms_messaging_v1_MessageRef__Output>
        MessageVersion: MessageTypeDefinition<_wms_messaging_v1_MessageVersion, _wms_messaging_v1_MessageVersion__Output>
        MessagingService: SubtypeConstructor<typeof grpc.Client, _wms_messaging_v1_MessagingServiceClient> & { service: _wms_messaging_v1_MessagingServiceDefinition }
        OpenDirectConversationRequest: MessageTypeDefinition<_wms_messaging_v1_OpenDirectConversationRequest, _wms_messaging_v1_OpenDirectConversationRequest__Output>
        Reaction: MessageTypeDefinition<_wms_messaging_v1_Reaction, _wms_messaging_v1_Reaction__Output>
        ReactionRequest: MessageTypeDefinition<_wms_messaging_v1_ReactionRequest, _wms_messaging_v1_ReactionRequest__Output>
        ReadState: MessageTypeDefinition<_wms_messaging_v1_ReadState, _wms_messaging_v1_ReadState__Output>
        SavedMessageState: MessageTypeDefinition<_wms_messaging_v1_SavedMessageState, _wms_messaging_v1_SavedMessageState__Output>
        SearchHit: MessageTypeDefinition<_wms_messaging_v1_SearchHit, _wms_messaging_v1_SearchHit__Output>
        SearchMessagesRequest: MessageTypeDefinition<_wms_messaging_v1_SearchMessagesRequest, _wms_messaging_v1_SearchMessagesRequest__Output>
        SearchPage: MessageTypeDefinition<_wms_messaging_v1_SearchPage, _wms_messaging_v1_SearchPage__Output>
        TextStyle: MessageTypeDefinition<_wms_messaging_v1_TextStyle, _wms_messaging_v1_TextStyle__Output>
        Thread: MessageTypeDefinition<_wms_messaging_v1_Thread, _wms_messaging_v1_Thread__Output>
        ThreadPage: MessageTypeDefinition<_wms_messaging_v1_ThreadPage, _wms_messaging_v1_ThreadPage__Output>
        ThreadRef: MessageTypeDefinition<_wms_messaging_v1_ThreadRef, _wms_messaging_v1_ThreadRef__Output>
        UpdateChannelRequest: MessageTypeDefinition<_wms_messaging_v1_UpdateChannelRequest, _wms_messaging_v1_UpdateChannelRequest__Output>
        UpdateConversationReadStateRequest: MessageTypeDefinition<_wms_messaging_v1_UpdateConversationReadStateRequest, _wms_messaging_v1_UpdateConversationReadStateRequest__Output>
        UpdateMessageRequest: MessageTypeDefinition<_wms_messaging_v1_UpdateMessageRequest, _wms_messaging_v1_UpdateMessageRequest__Output>
        UpdateThreadReadStateRequest: MessageTypeDefinition<_wms_messaging_v1_UpdateThreadReadStateRequest, _wms_messaging_v1_UpdateThreadReadStateRequest__Output>
        UpdateThreadSubscriptionRequest: MessageTypeDefinition<_wms_messaging_v1_UpdateThreadSubscriptionRequest, _wms_messaging_v1_UpdateThreadSubscriptionRequest__Output>
      }
    }
  }
}

