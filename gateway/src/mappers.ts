import { actorChannel, presenceChannel, workspaceChannel } from '@wms/kit/channels';
import type { JsonBody__Output } from '@wms/protos/gen/wms/common/v1/JsonBody';
import type { Download__Output } from '@wms/protos/gen/wms/common/v1/Download';
import type { User__Output } from '@wms/protos/gen/wms/common/v1/User';
import type { AuthResponse__Output } from '@wms/protos/gen/wms/common/v1/AuthResponse';
import type { EmailPendingResponse__Output } from '@wms/protos/gen/wms/identity/v1/EmailPendingResponse';
import type { RequestEmailCodeResponse__Output } from '@wms/protos/gen/wms/identity/v1/RequestEmailCodeResponse';
import type { VerifyEmailResponse__Output } from '@wms/protos/gen/wms/identity/v1/VerifyEmailResponse';
import type { ChannelMemberPage__Output } from '@wms/protos/gen/wms/messaging/v1/ChannelMemberPage';
import type { ConversationPage__Output } from '@wms/protos/gen/wms/messaging/v1/ConversationPage';
import type { MessageHistory__Output } from '@wms/protos/gen/wms/messaging/v1/MessageHistory';
import type { ActorPresence__Output } from '@wms/protos/gen/wms/realtime/v1/ActorPresence';
import type { ChannelAuthorization__Output } from '@wms/protos/gen/wms/realtime/v1/ChannelAuthorization';
import type { DeliveredEvent__Output } from '@wms/protos/gen/wms/realtime/v1/DeliveredEvent';
import type { EventPage__Output } from '@wms/protos/gen/wms/realtime/v1/EventPage';
import type { RealtimeConfig__Output } from '@wms/protos/gen/wms/realtime/v1/RealtimeConfig';
import type { UserAuthorization__Output } from '@wms/protos/gen/wms/realtime/v1/UserAuthorization';
import type { Invitation__Output } from '@wms/protos/gen/wms/workspace/v1/Invitation';
import type { InvitationPage__Output } from '@wms/protos/gen/wms/workspace/v1/InvitationPage';
import type { ReceivedInvitation__Output } from '@wms/protos/gen/wms/workspace/v1/ReceivedInvitation';
import type { Token__Output } from '@wms/protos/gen/wms/workspace/v1/Token';
import {
  publicActor,
  publicActorPresence,
  publicAsset,
  publicChannel,
  publicChannelMember,
  publicMessage,
  publicMessageChild,
  publicMessagePage,
  publicMessageReactions,
  publicReadState,
  publicSavedMessageState,
  publicSearchPage,
  publicThreadPage,
  publicWorkspace,
  publicWorkspaceUser,
} from '@wms/protos/public';
import type { z } from 'zod';
import { RenderedJson } from './routes/route.ts';
import type * as s from './schemas.ts';
import type { Body } from './schemas.ts';

// The one mapping from the services' proto answers to the HTTP bodies, one function per object. Each returns its
// response schema's type, so a field missing from either side, or one the schema does not name, fails the typecheck.
// A resource that clients also receive in events is mapped by its function of @wms/protos/public, which the owning
// service uses for the event; `same` holds that function to the schema. Enum fields travel as proto strings; the
// owning service writes only the values its schema lists, hence their casts.

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `map` as the mapper of schema `S`'s body: it must return exactly that type (no field more or less, the same types),
 * or the call asks for a second argument of type never and the typecheck fails.
 */
const same =
  <S extends z.ZodType>() =>
  <P, R>(map: (proto: P) => R, ..._exactly: Same<R, Body<S>> extends true ? [] : [never]) =>
    map as unknown as (proto: P) => Body<S>;

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

export const toWorkspace = same<typeof s.Workspace>()(publicWorkspace);

export const toWorkspaceUser = same<typeof s.WorkspaceUser>()(publicWorkspaceUser);

export const toActor = same<typeof s.WorkspaceActor>()(publicActor);

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

export const toChannel = same<typeof s.Channel>()(publicChannel);

export const toChannelMember = same<typeof s.ChannelMember>()(publicChannelMember);

export const toChannelMemberPage = (p: ChannelMemberPage__Output): Body<typeof s.ChannelMemberPage> => ({
  items: p.items.map(toChannelMember),
  next_cursor: p.next_cursor ?? null,
});

export const toConversationPage = (p: ConversationPage__Output): Body<typeof s.ConversationPage> => ({
  items: p.items.map((c) => ({ conversation: toChannel(c.conversation!), read_state: toReadState(c.read_state!) })),
  next_cursor: p.next_cursor ?? null,
});

export const toAsset = same<typeof s.Asset>()(publicAsset);

export const toMessage = same<typeof s.Message>()(publicMessage);

export const toMessageHistory = (h: MessageHistory__Output): Body<typeof s.MessageHistory> =>
  h.versions.map((v) => ({
    body_text: v.body_text,
    children: v.children.map(publicMessageChild),
    mentioned_actor_ids: v.mentioned_actor_ids,
    written_at: v.written_at,
  }));

/**
 * A body messaging rendered as JSON with `render`, passed on as its bytes: `same` holds `render` to the schema, so the
 * bytes are typed as the body it makes.
 */
const rendered =
  <B>(_render: (proto: never) => B) =>
  (answer: JsonBody__Output) =>
    new RenderedJson<B>(answer.json);

/** A page of messages, or of saved messages (the same body). */
export const toMessagePage = rendered(same<typeof s.MessagePage>()(publicMessagePage));

export const toThreadPage = rendered(same<typeof s.ThreadPage>()(publicThreadPage));

export const toSearchPage = rendered(same<typeof s.SearchPage>()(publicSearchPage));

export const toSavedMessageState = same<typeof s.SavedMessageState>()(publicSavedMessageState);

export const toMessageReactions = same<typeof s.MessageReactions>()(publicMessageReactions);

export const toReadState = same<typeof s.ConversationReadState>()(publicReadState);

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

/** A listed presence is online (its proto's status is `online` or, in a leave event, `offline`). */
export const toActorPresence = (p: ActorPresence__Output): Body<typeof s.ActorPresence> => ({
  ...publicActorPresence(p),
  status: 'online',
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

export const toInvitation = (i: Invitation__Output): Body<typeof s.Invitation> => ({
  id: i.id,
  workspace_id: i.workspace_id,
  email: i.email,
  role: i.role as 'admin' | 'member',
  status: i.status as Body<typeof s.Invitation>['status'],
  invited_by_actor_id: i.invited_by_actor_id,
  workspace_user_id: i.workspace_user_id ?? null,
  expires_at: i.expires_at,
  created_at: i.created_at,
  updated_at: i.updated_at,
});

export const toInvitationPage = (p: InvitationPage__Output): Body<typeof s.InvitationPage> => ({
  items: p.items.map(toInvitation),
  next_cursor: p.next_cursor ?? null,
});

export const toReceivedInvitation = (r: ReceivedInvitation__Output): Body<typeof s.ReceivedInvitation> => ({
  invitation: toInvitation(r.invitation!),
  workspace: {
    id: r.workspace?.id ?? '',
    name: r.workspace?.name ?? '',
    slug: r.workspace?.slug ?? '',
    avatar_id: r.workspace?.avatar_id ?? null,
  },
  invited_by: { display_name: r.invited_by?.display_name ?? '', avatar_id: r.invited_by?.avatar_id ?? null },
});
