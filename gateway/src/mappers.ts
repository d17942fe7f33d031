import { actorChannel, presenceChannel, workspaceChannel } from '@wms/kit/channels';
import type { Asset__Output } from '@wms/protos/gen/wms/common/v1/Asset';
import type { Download__Output } from '@wms/protos/gen/wms/common/v1/Download';
import type { User__Output } from '@wms/protos/gen/wms/common/v1/User';
import type { AuthResponse__Output } from '@wms/protos/gen/wms/identity/v1/AuthResponse';
import type { EmailPendingResponse__Output } from '@wms/protos/gen/wms/identity/v1/EmailPendingResponse';
import type { RequestEmailCodeResponse__Output } from '@wms/protos/gen/wms/identity/v1/RequestEmailCodeResponse';
import type { VerifyEmailResponse__Output } from '@wms/protos/gen/wms/identity/v1/VerifyEmailResponse';
import type { Channel__Output } from '@wms/protos/gen/wms/messaging/v1/Channel';
import type { ChannelMember__Output } from '@wms/protos/gen/wms/messaging/v1/ChannelMember';
import type { ChannelMemberPage__Output } from '@wms/protos/gen/wms/messaging/v1/ChannelMemberPage';
import type { ConversationPage__Output } from '@wms/protos/gen/wms/messaging/v1/ConversationPage';
import type { Message__Output } from '@wms/protos/gen/wms/messaging/v1/Message';
import type { MessageChild__Output } from '@wms/protos/gen/wms/messaging/v1/MessageChild';
import type { MessagePage__Output } from '@wms/protos/gen/wms/messaging/v1/MessagePage';
import type { MessageReactions__Output } from '@wms/protos/gen/wms/messaging/v1/MessageReactions';
import type { Reaction__Output } from '@wms/protos/gen/wms/messaging/v1/Reaction';
import type { ReadState__Output } from '@wms/protos/gen/wms/messaging/v1/ReadState';
import type { SearchPage__Output } from '@wms/protos/gen/wms/messaging/v1/SearchPage';
import type { SavedMessageState__Output } from '@wms/protos/gen/wms/messaging/v1/SavedMessageState';
import type { Thread__Output } from '@wms/protos/gen/wms/messaging/v1/Thread';
import type { ThreadPage__Output } from '@wms/protos/gen/wms/messaging/v1/ThreadPage';
import type { ActorPresence__Output } from '@wms/protos/gen/wms/realtime/v1/ActorPresence';
import type { ChannelAuthorization__Output } from '@wms/protos/gen/wms/realtime/v1/ChannelAuthorization';
import type { DeliveredEvent__Output } from '@wms/protos/gen/wms/realtime/v1/DeliveredEvent';
import type { EventPage__Output } from '@wms/protos/gen/wms/realtime/v1/EventPage';
import type { RealtimeConfig__Output } from '@wms/protos/gen/wms/realtime/v1/RealtimeConfig';
import type { UserAuthorization__Output } from '@wms/protos/gen/wms/realtime/v1/UserAuthorization';
import type { Actor__Output } from '@wms/protos/gen/wms/workspace/v1/Actor';
import type { Token__Output } from '@wms/protos/gen/wms/workspace/v1/Token';
import type { Workspace__Output } from '@wms/protos/gen/wms/workspace/v1/Workspace';
import type { WorkspaceUser__Output } from '@wms/protos/gen/wms/workspace/v1/WorkspaceUser';
import type * as s from './schemas.ts';
import type { Body } from './schemas.ts';

// The one mapping from the services' proto answers to the HTTP bodies, one function per object. Each returns its
// response schema's type, so a field missing from either side, or one the schema does not name, fails the typecheck.
// Enum fields travel as proto strings; the owning service writes only the values its schema lists, hence their casts.

export const toUser = (u: User__Output | null): Body<typeof s.User> => ({
  id: u?.id ?? '',
  email: u?.email ?? '',
  name: u?.name ?? '',
  email_verified_at: u?.email_verified_at ?? null,
  pending_email: u?.pending_email ?? null,
  created_at: u?.created_at ?? '',
  updated_at: u?.updated_at ?? '',
});

export const toAuth = (a: AuthResponse__Output | null): Body<typeof s.AuthResponse> => ({
  access_token: a?.access_token ?? '',
  token_type: 'Bearer',
  user: toUser(a?.user ?? null),
  expires_at: a?.expires_at ?? null,
});

export const toEmailPending = (r: EmailPendingResponse__Output): Body<typeof s.EmailPending> => ({
  status: 'email_pending',
  email: r.email,
});

export const toEmailCodePending = (r: RequestEmailCodeResponse__Output): Body<typeof s.EmailCodePending> => ({
  status: 'code_pending',
  email: r.email,
  expires_at: r.expires_at,
});

/** A registration or sign-in link signs in; an email-change link only confirms the address. */
export const toVerifiedEmail = (
  r: VerifyEmailResponse__Output,
): Body<typeof s.AuthResponse> | Body<typeof s.EmailVerified> =>
  r.auth ? toAuth(r.auth) : { status: 'email_verified', user: toUser(r.user) };

export const passwordReset: Body<typeof s.PasswordReset> = { status: 'password_reset' };

export const toWorkspace = (w: Workspace__Output): Body<typeof s.Workspace> => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  avatar_id: w.avatar_id ?? null,
  created_at: w.created_at,
  updated_at: w.updated_at,
});

export const toWorkspaceUser = (m: WorkspaceUser__Output): Body<typeof s.WorkspaceUser> => ({
  id: m.id,
  workspace_id: m.workspace_id,
  user_id: m.user_id,
  actor_id: m.actor_id,
  role: m.role as Body<typeof s.WorkspaceUser>['role'],
  accepted_at: m.accepted_at ?? null,
  created_at: m.created_at,
  updated_at: m.updated_at,
  user: { id: m.user?.id ?? m.user_id, email: m.user?.email ?? '', name: m.user?.name ?? '' },
});

export const toActor = (a: Actor__Output): Body<typeof s.WorkspaceActor> => ({
  id: a.id,
  workspace_id: a.workspace_id,
  kind: a.kind as Body<typeof s.WorkspaceActor>['kind'],
  user_id: a.user_id ?? null,
  display_name: a.display_name,
  title: a.title ?? null,
  avatar_id: a.avatar_id ?? null,
  managed_by_admins: a.managed_by_admins,
  deactivated_at: a.deactivated_at ?? null,
  created_at: a.created_at,
  updated_at: a.updated_at,
});

/** A token as the workspace service answers it; the secret only in the answer that creates it. */
export const toToken = (t: Token__Output): Body<typeof s.Token> => ({
  id: t.id,
  kind: t.kind as Body<typeof s.Token>['kind'],
  workspace_id: t.workspace_id,
  conversation_id: t.conversation_id ?? null,
  actor_id: t.actor_id,
  name: t.name,
  token_prefix: t.token_prefix,
  created_by_actor_id: t.created_by_actor_id,
  created_at: t.created_at,
  last_used_at: t.last_used_at ?? null,
  revoked_at: t.revoked_at ?? null,
  token: t.token ?? null,
});

/** Asset content and avatars alike. */
export const toDownload = (d: Download__Output): Body<typeof s.AssetDownload> => ({
  url: d.url,
  expires_at: d.expires_at,
  name: d.name,
  content_type: d.content_type,
  size_bytes: d.size_bytes,
});

export const toChannel = (c: Channel__Output): Body<typeof s.Channel> => ({
  id: c.id,
  workspace_id: c.workspace_id,
  conversation_id: c.id,
  kind: c.kind as Body<typeof s.Channel>['kind'],
  name: c.name ?? null,
  topic: c.topic ?? null,
  created_by_actor_id: c.created_by_actor_id,
  member_count: c.member_count,
  is_member: c.is_member,
  participant_actor_ids: c.participant_actor_ids,
  last_message_at: c.last_message_at ?? null,
  archived_at: c.archived_at ?? null,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

export const toChannelMember = (m: ChannelMember__Output): Body<typeof s.ChannelMember> => ({
  channel_id: m.channel_id,
  actor_id: m.actor_id,
  added_by_actor_id: m.added_by_actor_id ?? null,
  joined_at: m.joined_at,
});

export const toChannelMemberPage = (p: ChannelMemberPage__Output): Body<typeof s.ChannelMemberPage> => ({
  items: p.items.map(toChannelMember),
  next_cursor: p.next_cursor ?? null,
});

export const toConversationPage = (p: ConversationPage__Output): Body<typeof s.ConversationPage> => ({
  items: p.items.map((c) => ({ conversation: toChannel(c.conversation!), read_state: toReadState(c.read_state!) })),
  next_cursor: p.next_cursor ?? null,
});

export const toAsset = (a: Asset__Output): Body<typeof s.Asset> => ({
  id: a.id,
  created_at: a.created_at,
  updated_at: a.updated_at,
  conversation_id: a.conversation_id,
  message_id: a.message_id ?? null,
  name: a.name,
  size_bytes: a.size_bytes,
  content_type: a.content_type,
  status: a.status as Body<typeof s.Asset>['status'],
  preview_kind: (a.preview_kind ?? null) as Body<typeof s.Asset>['preview_kind'],
});

type MessageBody = Body<typeof s.Message>;

const toMessageChild = (c: MessageChild__Output): MessageBody['children'][number] => ({
  type: c.type as 'text',
  text: c.text,
});

const toReaction = (r: Reaction__Output): Body<typeof s.Reaction> => ({ emoji: r.emoji, actor_ids: r.actor_ids });

export const toMessage = (m: Message__Output): MessageBody => ({
  id: m.id,
  created_at: m.created_at,
  updated_at: m.updated_at,
  children: m.children.map(toMessageChild),
  loading_expires_at: m.loading_expires_at ?? null,
  saved_at: m.saved_at ?? null,
  reply_count: m.reply_count,
  reply_actor_ids: m.reply_actor_ids,
  last_reply_at: m.last_reply_at ?? null,
  reactions: m.reactions.map(toReaction),
  reactions_version: m.reactions_version,
  assets: m.assets.map(toAsset),
  workspace_id: m.workspace_id,
  conversation_id: m.conversation_id,
  author_actor_id: m.author_actor_id,
  body_text: m.body_text,
  mentioned_actor_ids: m.mentioned_actor_ids,
  parent_message_id: m.parent_message_id ?? null,
  edited_at: m.edited_at ?? null,
  deleted_at: m.deleted_at ?? null,
});

/** A page of messages, or of saved messages (the same body). */
export const toSearchPage = (p: SearchPage__Output): Body<typeof s.SearchPage> => ({
  items: p.items.map((hit) => ({
    message: toMessage(hit.message!),
    highlights: hit.highlights.map((h) => ({ start: h.start, end: h.end })),
  })),
  next_cursor: p.next_cursor ?? null,
});

export const toMessagePage = (p: MessagePage__Output): Body<typeof s.MessagePage> => ({
  items: p.items.map(toMessage),
  next_cursor: p.next_cursor ?? null,
});

export const toSavedMessageState = (r: SavedMessageState__Output): Body<typeof s.SavedMessageState> => ({
  message_id: r.message_id,
  saved: r.saved,
  saved_at: r.saved_at ?? null,
});

export const toMessageReactions = (r: MessageReactions__Output): Body<typeof s.MessageReactions> => ({
  message_id: r.message_id,
  reactions: r.reactions.map(toReaction),
  reactions_version: r.reactions_version,
});

export const toReadState = (r: ReadState__Output): Body<typeof s.ConversationReadState> => ({
  conversation_id: r.conversation_id,
  thread_root_id: r.thread_root_id ?? null,
  last_read_message_id: r.last_read_message_id ?? null,
  last_read_at: r.last_read_at ?? null,
  unread_count: r.unread_count,
  mention_count: r.mention_count,
  following: r.following ?? null,
  updated_at: r.updated_at ?? null,
});

const toThread = (t: Thread__Output): Body<typeof s.Thread> => ({
  id: t.id,
  conversation_id: t.conversation_id,
  root_message: toMessage(t.root_message!),
  reply_count: t.reply_count,
  last_reply_at: t.last_reply_at ?? null,
  following: t.following,
  last_read_message_id: t.last_read_message_id ?? null,
  unread_count: t.unread_count,
  mention_count: t.mention_count,
});

export const toThreadPage = (p: ThreadPage__Output): Body<typeof s.ThreadPage> => ({
  items: p.items.map(toThread),
  next_cursor: p.next_cursor ?? null,
});

/** The provider's settings for clients, with the endpoints and the caller's channels (contract §7). */
export const toRealtimeConfiguration = (
  c: RealtimeConfig__Output,
  caller: { workspaceId: string; actorId: string },
): Body<typeof s.RealtimeConfiguration> => ({
  provider: 'pusher',
  app_key: c.app_key,
  cluster: c.cluster,
  ws_host: c.ws_host,
  ws_port: c.ws_port,
  wss_port: c.wss_port,
  ws_path: c.ws_path,
  force_tls: c.force_tls,
  channel_authorization_endpoint: '/realtime/authorize',
  user_authentication_endpoint: '/realtime/authenticate',
  channels: {
    workspace: workspaceChannel(caller.workspaceId),
    presence: presenceChannel(caller.workspaceId),
    actor: actorChannel(caller.actorId),
  },
});

export const toRealtimeAuthorization = (a: ChannelAuthorization__Output): Body<typeof s.RealtimeAuthorization> => ({
  auth: a.auth,
  channel_data: a.channel_data ?? null,
});

export const toRealtimeUserAuthorization = (
  a: UserAuthorization__Output,
): Body<typeof s.RealtimeUserAuthorization> => ({ auth: a.auth, user_data: a.user_data });

export const toActorPresence = (p: ActorPresence__Output): Body<typeof s.ActorPresence> => ({
  actor_id: p.actor_id,
  status: p.status as 'online',
  since: p.since,
});

/** An event as it was triggered; the realtime service stores only JSON objects as data. */
const toDeliveredEvent = (e: DeliveredEvent__Output): Body<typeof s.DeliveredEvent> => ({
  cursor: e.cursor,
  channel: e.channel,
  event: e.name,
  data: JSON.parse(e.data) as Record<string, unknown>,
});

export const toEventPage = (p: EventPage__Output): Body<typeof s.EventPage> => ({
  items: p.items.map(toDeliveredEvent),
  next_cursor: p.next_cursor,
});
