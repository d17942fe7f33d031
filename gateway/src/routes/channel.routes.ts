import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toChannel, toChannelMember, toChannelMemberPage, toConversationPage } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const channelPath = z.object({ channel_id: s.id('conversation') });
const memberPath = z.object({ channel_id: s.id('conversation'), actor_id: s.id('actor') });

/** The spec's Channels table (contract §4) and conversations (§9): kinds, members, direct conversations, the sidebar. */
export const channelRoutes = ({ messaging }: Clients) => [
  route({
    method: 'post',
    path: '/channels',
    tag: 'Channels',
    summary: 'Create a public or private channel (any member); the creator and the named actors become members',
    auth: 'workspace',
    tokens: 'workspace',
    body: z
      .object({
        name: s.channelName,
        topic: s.topic.nullable().optional(),
        kind: z
          .enum(['public', 'private'])
          .optional()
          .describe('`public` when left out; a private channel is readable by its members alone'),
        member_actor_ids: z
          .array(s.id('actor'))
          .max(100)
          .optional()
          .describe('up to 100 active actors of the workspace, added by the creator'),
      })
      .meta({
        examples: [
          { name: 'general', topic: 'Everything else' },
          { name: 'launch', kind: 'private', member_actor_ids: [s.exampleIds.actor] },
        ],
      }),
    status: 201,
    response: s.Channel,
    errors: [409],
    codes: ['channel_name_taken'],
    handle: async ({ body, ctx }) =>
      toChannel(
        await messaging.CreateChannel(
          {
            name: body.name,
            topic: body.topic ?? undefined,
            kind: body.kind,
            member_actor_ids: body.member_actor_ids ?? [],
          },
          ctx,
        ),
      ),
  }),
  route({
    method: 'get',
    path: '/channels',
    tag: 'Channels',
    summary:
      "The workspace's public channels and the private ones the caller is a member of (never direct ones), by name; with q, a channel picker",
    auth: 'workspace',
    tokens: 'workspace',
    query: z.object({ q: s.pickerQuery.optional() }),
    status: 200,
    response: z.array(s.Channel),
    handle: async ({ query, ctx }) => (await messaging.ListChannels({ q: query.q }, ctx)).channels.map(toChannel),
  }),
  route({
    method: 'get',
    path: '/channels/:channel_id',
    tag: 'Channels',
    summary: 'One conversation of any kind, to whoever may read it',
    auth: 'workspace',
    tokens: 'workspace',
    params: channelPath,
    status: 200,
    response: s.Channel,
    codes: ['not_found'],
    handle: async ({ params, ctx }) => toChannel(await messaging.GetChannel({ channel_id: params.channel_id }, ctx)),
  }),
  route({
    method: 'patch',
    path: '/channels/:channel_id',
    tag: 'Channels',
    summary: 'Rename a channel or change its topic (its creator, owners and admins)',
    auth: 'workspace',
    tokens: 'workspace',
    params: channelPath,
    body: z
      .object({
        name: s.channelName.optional(),
        topic: s.topic.nullable().optional().describe('null or empty clears it'),
      })
      .meta({ examples: [{ topic: 'Launch on Monday' }] }),
    status: 200,
    response: s.Channel,
    errors: [403, 409],
    codes: ['not_found', 'forbidden', 'not_a_channel', 'channel_name_taken'],
    handle: async ({ params, body, ctx }) =>
      toChannel(
        await messaging.UpdateChannel(
          {
            channel_id: params.channel_id,
            name: body.name,
            topic: body.topic ?? undefined,
            clear_topic: body.topic === null,
          },
          ctx,
        ),
      ),
  }),
  route({
    method: 'get',
    path: '/channels/:channel_id/members',
    tag: 'Channels',
    summary: 'The members of a conversation, by actor id',
    auth: 'workspace',
    tokens: 'workspace',
    params: channelPath,
    query: z.object({
      cursor: s.id('cursor').optional().describe('`next_cursor` of the previous page (an actor id)'),
      limit: s.limit,
    }),
    status: 200,
    response: s.ChannelMemberPage,
    codes: ['not_found'],
    handle: async ({ params, query, ctx }) =>
      toChannelMemberPage(
        await messaging.ListChannelMembers(
          { channel_id: params.channel_id, cursor: query.cursor, limit: query.limit ?? 50 },
          ctx,
        ),
      ),
  }),
  route({
    method: 'put',
    path: '/channels/:channel_id/members/:actor_id',
    tag: 'Channels',
    summary:
      'Add a member (idempotent): public, anyone for themselves and a member for anyone; private, a member for anyone',
    auth: 'workspace',
    tokens: 'workspace',
    params: memberPath,
    status: 200,
    response: s.ChannelMember,
    errors: [403, 409],
    codes: ['not_found', 'forbidden', 'membership_fixed'],
    handle: async ({ params, ctx }) => toChannelMember(await messaging.AddChannelMember(params, ctx)),
  }),
  route({
    method: 'delete',
    path: '/channels/:channel_id/members/:actor_id',
    tag: 'Channels',
    summary: "Leave, or remove a member (the channel's creator, owners and admins); also 204 when not a member",
    auth: 'workspace',
    tokens: 'workspace',
    params: memberPath,
    status: 204,
    errors: [403, 409],
    codes: ['not_found', 'forbidden', 'membership_fixed'],
    handle: async ({ params, ctx }) => void (await messaging.RemoveChannelMember(params, ctx)),
  }),
  route({
    method: 'post',
    path: '/conversations/direct',
    tag: 'Channels',
    summary: 'Open the direct conversation of the caller and 1..8 others: one per set of participants',
    auth: 'workspace',
    tokens: 'workspace',
    body: z
      .object({
        actor_ids: z
          .array(s.id('actor'))
          .min(1)
          .max(100)
          .describe(
            "the others: 1..8 active actors of the workspace, users or agents (the caller's own id and repeats are dropped first)",
          ),
      })
      .meta({ examples: [{ actor_ids: [s.exampleIds.actor] }] }),
    status: 201,
    alternate: { status: 200, description: 'The direct conversation of this set already existed' },
    response: s.Channel,
    handle: async ({ body, ctx, res }) => {
      const { channel, created } = await messaging.OpenDirectConversation({ actor_ids: body.actor_ids }, ctx);
      if (!created) res.locals.alternate = true;
      return toChannel(channel!);
    },
  }),
  route({
    method: 'get',
    path: '/conversations',
    tag: 'Channels',
    summary: "The caller's sidebar: its conversations with its read state, newest activity first",
    auth: 'workspace',
    tokens: 'workspace',
    query: z.object({
      kind: s.channelKind.optional().describe('only conversations of this kind'),
      unread: s.queryBoolean(false, 'true keeps the conversations with unread messages'),
      cursor: z.string().max(512).optional().describe('`next_cursor` of the previous page (opaque)'),
      limit: s.limit,
    }),
    status: 200,
    response: s.ConversationPage,
    handle: async ({ query, ctx }) =>
      toConversationPage(
        await messaging.ListConversations(
          { kind: query.kind, unread: query.unread ?? false, cursor: query.cursor, limit: query.limit ?? 50 },
          ctx,
        ),
      ),
  }),
];
