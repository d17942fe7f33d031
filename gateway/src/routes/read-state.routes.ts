import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toReadState, toThreadPage } from '../mappers.ts';
import * as s from '../schemas.ts';
import { conversationForms } from './message.routes.ts';
import { route } from './route.ts';

const updateReadState = z
  .object({ last_read_message_id: s.id('message') })
  .meta({ examples: [{ last_read_message_id: s.exampleIds.message }] });
// Read-state and thread path ids are strings (contract §1): a malformed one is simply not found, and a UUID in
// capitals is the same id as in lowercase.
const threadPath = z.object({
  thread_root_id: s.lenientId('message').describe('the root message id; a malformed one is 404'),
});

/** The spec's Read state and threads table (contract §5), served by the messaging service. */
export const readStateRoutes = ({ messaging }: Clients) => [
  ...conversationForms.flatMap(({ base, param }) => {
    const path = z.object({ [param]: s.lenientId('conversation').describe('a malformed id is 404') }) as z.ZodType<
      Record<string, string>
    >;
    return [
      route({
        method: 'get',
        path: `${base}/read-state`,
        tag: 'Read state and threads',
        summary: "The caller's read state of the conversation",
        auth: 'workspace',
        tokens: 'workspace',
        params: path,
        status: 200,
        response: s.ConversationReadState,
        codes: ['not_found'],
        handle: async ({ params, ctx }) =>
          toReadState(await messaging.GetConversationReadState({ conversation_id: params[param]! }, ctx)),
      }),
      route({
        method: 'put',
        path: `${base}/read-state`,
        tag: 'Read state and threads',
        summary: 'Mark the conversation read up to a message (backwards too)',
        auth: 'workspace',
        tokens: 'workspace',
        params: path,
        body: updateReadState,
        status: 200,
        response: s.ConversationReadState,
        codes: ['not_found', 'wrong_conversation'],
        handle: async ({ params, body, ctx }) =>
          toReadState(
            await messaging.UpdateConversationReadState(
              { conversation_id: params[param]!, last_read_message_id: body.last_read_message_id },
              ctx,
            ),
          ),
      }),
    ];
  }),
  route({
    method: 'get',
    path: '/threads/:thread_root_id/read-state',
    tag: 'Read state and threads',
    summary: "The caller's read state and subscription of a thread",
    auth: 'workspace',
    tokens: 'workspace',
    params: threadPath,
    status: 200,
    response: s.ConversationReadState,
    codes: ['not_found'],
    handle: async ({ params, ctx }) =>
      toReadState(await messaging.GetThreadReadState({ root_id: params.thread_root_id }, ctx)),
  }),
  route({
    method: 'put',
    path: '/threads/:thread_root_id/read-state',
    tag: 'Read state and threads',
    summary: 'Mark the thread read up to its root or a reply',
    auth: 'workspace',
    tokens: 'workspace',
    params: threadPath,
    body: updateReadState,
    status: 200,
    response: s.ConversationReadState,
    codes: ['not_found', 'wrong_conversation'],
    handle: async ({ params, body, ctx }) =>
      toReadState(
        await messaging.UpdateThreadReadState(
          { root_id: params.thread_root_id, last_read_message_id: body.last_read_message_id },
          ctx,
        ),
      ),
  }),
  route({
    method: 'put',
    path: '/threads/:thread_root_id/subscription',
    tag: 'Read state and threads',
    summary: 'Follow or unfollow a thread',
    auth: 'workspace',
    tokens: 'workspace',
    params: threadPath,
    body: z.object({ following: z.boolean() }).meta({ examples: [{ following: true }] }),
    status: 200,
    response: s.ConversationReadState,
    codes: ['not_found'],
    handle: async ({ params, body, ctx }) =>
      toReadState(
        await messaging.UpdateThreadSubscription({ root_id: params.thread_root_id, following: body.following }, ctx),
      ),
  }),
  route({
    method: 'get',
    path: '/threads',
    tag: 'Read state and threads',
    summary: 'Followed threads (or all with following=false), by root id descending',
    auth: 'workspace',
    tokens: 'workspace',
    query: z.object({
      following: s.queryBoolean(true, 'false lists every thread of the workspace, followed or not'),
      unread: s.queryBoolean(false, 'true keeps the threads with unread replies'),
      cursor: s.id('cursor').optional().describe('`next_cursor` of the previous page (a root message id)'),
      limit: s.limit,
    }),
    status: 200,
    response: s.ThreadPage,
    handle: async ({ query, ctx }) =>
      toThreadPage(
        await messaging.ListThreads(
          {
            following: query.following ?? true,
            unread: query.unread ?? false,
            cursor: query.cursor,
            limit: query.limit ?? 50,
          },
          ctx,
        ),
      ),
  }),
];
