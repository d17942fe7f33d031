import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toSearchPage } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

/** Search (contract §10), served by the messaging service. */
export const searchRoutes = ({ messaging }: Clients) => [
  route({
    method: 'get',
    path: '/search/messages',
    tag: 'Search',
    auth: 'workspace',
    tokens: 'workspace',
    summary:
      'Messages you may read that match a web-search query (words, "phrases", -exclusions, OR), newest first or by relevance, with highlights',
    query: z.object({
      q: z
        .string()
        .min(1)
        .max(500)
        .describe(
          '1..500 characters: words (all must match, stemmed: "deploying" finds "deployed"), "quoted phrases", -word to exclude, OR; a query of stop words only finds nothing',
        ),
      conversation_id: s
        .id('conversation')
        .optional()
        .describe('only this conversation (404 when you may not read it)'),
      author_actor_id: s.id('actor').optional().describe("only this actor's messages"),
      parent_message_id: s.id('message').optional().describe("only that thread's replies"),
      has: z
        .enum(['asset', 'reaction', 'reply'])
        .optional()
        .describe('only messages with an attachment, a reaction, or replies'),
      after: z
        .string()
        .max(40)
        .optional()
        .describe('only messages created after this ISO 8601 timestamp (exclusive, at milliseconds)'),
      before: z
        .string()
        .max(40)
        .optional()
        .describe('only messages created before this ISO 8601 timestamp (exclusive, at milliseconds)'),
      sort: z
        .enum(['newest', 'relevance'])
        .optional()
        .describe(
          '`newest` (default) by id descending, through every match; `relevance`: the newest 1,000 matches, more occurrences of the words in a shorter text first, ties newest first',
        ),
      cursor: z
        .string()
        .max(512)
        .optional()
        .describe('`next_cursor` of the previous page of this same search (opaque)'),
      limit: s.limit,
    }),
    status: 200,
    response: s.SearchPage,
    codes: ['not_found'],
    handle: async ({ query, ctx }) =>
      toSearchPage(
        await messaging.SearchMessages(
          {
            q: query.q,
            conversation_id: query.conversation_id,
            author_actor_id: query.author_actor_id,
            parent_message_id: query.parent_message_id,
            has: query.has,
            after: query.after,
            before: query.before,
            sort: query.sort,
            cursor: query.cursor,
            limit: query.limit ?? 50,
          },
          ctx,
        ),
      ),
  }),
];
