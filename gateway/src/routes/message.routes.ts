import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toMessage, toMessageHistory, toMessagePage, toMessageReactions, toSavedMessageState } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const createMessage = z
  .object({
    body_text: s.bodyText.optional(),
    parent_message_id: s
      .id('message')
      .nullable()
      .optional()
      .describe('post a reply in the thread of this top-level message'),
    asset_ids: z.array(s.id('asset')).optional().meta({
      maxItems: 10,
      description: 'pending assets of this conversation reserved by the caller (400 otherwise); at most 10',
    }),
    mentioned_actor_ids: z
      .array(s.id('actor'))
      .optional()
      .meta({ maxItems: 50, description: 'actors of this workspace (400 otherwise); at most 50' }),
    loading: z.boolean().optional().describe('sets `loading_expires_at` 5 minutes ahead until the first edit'),
    client_message_id: s.clientMessageId.optional(),
  })
  .meta({
    examples: [{ body_text: 'The new diagram is up.', asset_ids: [s.exampleIds.asset], client_message_id: 'c-8f2e1a' }],
  });

const listQuery = z.object({
  cursor: s.id('cursor').optional().describe('`next_cursor` of the previous page: answers the messages older than it'),
  parent_message_id: s.id('message').optional().describe("list this root's replies instead of the top-level messages"),
  limit: s.limit,
});

/** The two equivalent path forms of the spec's Messages and Read state tables: a channel is addressed as a conversation. */
export const conversationForms = [
  { base: '/conversations/:conversation_id', param: 'conversation_id' },
  { base: '/channels/:channel_id', param: 'channel_id' },
] as const;

/** The spec's Messages, per-message actions and Saved messages tables (contract §4), served by the messaging service. */
export const messageRoutes = ({ messaging }: Clients) => {
  const lifecycle = conversationForms.flatMap(({ base, param }) => {
    const conversation = z.object({ [param]: s.id('conversation') }) as z.ZodType<Record<string, string>>;
    const oneMessage = z.object({ [param]: s.id('conversation'), message_id: s.id('message') }) as z.ZodType<
      Record<string, string>
    >;
    const ref = (p: Record<string, string>) => ({ conversation_id: p[param]!, message_id: p.message_id! });
    return [
      route({
        method: 'post',
        path: `${base}/messages`,
        tag: 'Messages',
        summary: 'Post a message, or a reply with parent_message_id',
        auth: 'workspace',
        tokens: 'conversation',
        params: conversation,
        body: createMessage,
        status: 201,
        response: s.Message,
        errors: [409],
        codes: ['not_found', 'not_a_root_message', 'thread_root_deleted'],
        handle: async ({ params, body, ctx }) =>
          toMessage(
            await messaging.CreateMessage(
              {
                conversation_id: params[param]!,
                body_text: body.body_text ?? '',
                parent_message_id: body.parent_message_id ?? undefined,
                asset_ids: body.asset_ids ?? [],
                mentioned_actor_ids: body.mentioned_actor_ids ?? [],
                loading: body.loading ?? false,
                client_message_id: body.client_message_id,
              },
              ctx,
            ),
          ),
      }),
      route({
        method: 'get',
        path: `${base}/messages`,
        tag: 'Messages',
        summary: 'Top-level messages, or the replies of parent_message_id; newest first',
        auth: 'workspace',
        tokens: 'workspace',
        params: conversation,
        query: listQuery,
        status: 200,
        response: s.MessagePage,
        codes: ['not_found'],
        handle: async ({ params, query, ctx }) =>
          toMessagePage(
            await messaging.ListMessages(
              {
                conversation_id: params[param]!,
                parent_message_id: query.parent_message_id,
                cursor: query.cursor,
                limit: query.limit ?? 50,
              },
              ctx,
            ),
          ),
      }),
      route({
        method: 'get',
        path: `${base}/messages/:message_id`,
        tag: 'Messages',
        summary: 'One message',
        auth: 'workspace',
        tokens: 'workspace',
        params: oneMessage,
        status: 200,
        response: s.Message,
        codes: ['not_found'],
        handle: async ({ params, ctx }) => toMessage(await messaging.GetMessage(ref(params), ctx)),
      }),
      route({
        method: 'patch',
        path: `${base}/messages/:message_id`,
        tag: 'Messages',
        summary: 'Edit a message (author only)',
        auth: 'workspace',
        tokens: 'workspace',
        params: oneMessage,
        body: z
          .object({ body_text: s.editedBodyText })
          .meta({ examples: [{ body_text: 'The new diagram is up (v2).' }] }),
        status: 200,
        response: s.Message,
        errors: [403, 409],
        codes: ['forbidden', 'not_found', 'message_deleted'],
        handle: async ({ params, body, ctx }) =>
          toMessage(await messaging.UpdateMessage({ ...ref(params), body_text: body.body_text }, ctx)),
      }),
      route({
        method: 'delete',
        path: `${base}/messages/:message_id`,
        tag: 'Messages',
        summary: 'Delete a message (author, owners, admins), leaving a placeholder',
        auth: 'workspace',
        tokens: 'workspace',
        params: oneMessage,
        status: 204,
        errors: [403],
        codes: ['forbidden', 'not_found'],
        handle: async ({ params, ctx }) => void (await messaging.DeleteMessage(ref(params), ctx)),
      }),
      route({
        method: 'get',
        path: `${base}/messages/:message_id/history`,
        tag: 'Messages',
        summary: 'Every text the message has had, oldest first; [] once deleted',
        auth: 'workspace',
        tokens: 'workspace',
        params: oneMessage,
        status: 200,
        response: s.MessageHistory,
        codes: ['not_found'],
        handle: async ({ params, ctx }) => toMessageHistory(await messaging.GetMessageHistory(ref(params), ctx)),
      }),
    ];
  });

  const messagePath = z.object({ conversation_id: s.id('conversation'), message_id: s.id('message') });
  const reactionPath = z.object({ conversation_id: s.id('conversation'), message_id: s.id('message'), emoji: s.emoji });
  return [
    ...lifecycle,
    route({
      method: 'put',
      path: '/conversations/:conversation_id/messages/:message_id/saved',
      tag: 'Messages',
      summary: 'Privately save (bookmark) a message; idempotent',
      auth: 'workspace',
      tokens: 'workspace',
      params: messagePath,
      status: 200,
      response: s.SavedMessageState,
      errors: [409],
      codes: ['not_found', 'message_deleted'],
      handle: async ({ params, ctx }) => toSavedMessageState(await messaging.SaveMessage(params, ctx)),
    }),
    route({
      method: 'delete',
      path: '/conversations/:conversation_id/messages/:message_id/saved',
      tag: 'Messages',
      summary: "Remove the caller's bookmark; idempotent",
      auth: 'workspace',
      tokens: 'workspace',
      params: messagePath,
      status: 200,
      response: s.SavedMessageState,
      codes: ['not_found'],
      handle: async ({ params, ctx }) => toSavedMessageState(await messaging.UnsaveMessage(params, ctx)),
    }),
    route({
      method: 'put',
      path: '/conversations/:conversation_id/messages/:message_id/reactions/:emoji',
      tag: 'Messages',
      summary: "Add the caller's reaction (one URL-encoded emoji); idempotent",
      auth: 'workspace',
      tokens: 'workspace',
      params: reactionPath,
      status: 200,
      response: s.MessageReactions,
      errors: [409],
      codes: ['not_found', 'invalid_emoji', 'too_many_reactions', 'message_deleted'],
      handle: async ({ params, ctx }) => toMessageReactions(await messaging.AddReaction(params, ctx)),
    }),
    route({
      method: 'delete',
      path: '/conversations/:conversation_id/messages/:message_id/reactions/:emoji',
      tag: 'Messages',
      summary: "Remove the caller's reaction; idempotent",
      auth: 'workspace',
      tokens: 'workspace',
      params: reactionPath,
      status: 200,
      response: s.MessageReactions,
      codes: ['not_found', 'invalid_emoji'],
      handle: async ({ params, ctx }) => toMessageReactions(await messaging.RemoveReaction(params, ctx)),
    }),
    route({
      method: 'get',
      path: '/saved-messages',
      tag: 'Saved messages',
      summary: "The caller's saved messages in this workspace, newest save first",
      auth: 'workspace',
      tokens: 'workspace',
      query: z.object({
        cursor: z
          .string()
          .max(512, 'must be at most 512 characters')
          .optional()
          .describe('opaque: `next_cursor` of the previous page'),
        limit: s.limit,
      }),
      status: 200,
      response: s.SavedMessagePage,
      handle: async ({ query, ctx }) =>
        toMessagePage(await messaging.ListSavedMessages({ cursor: query.cursor, limit: query.limit ?? 50 }, ctx)),
    }),
  ];
};
