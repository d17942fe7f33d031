import { callerOf } from '@wms/kit/caller';
import type { CallContext } from '@wms/kit/context';
import type { Attachments, MessageRead } from './adapters/attachments.ts';
import { pageLimit, type Page } from './domain/paging.ts';
import {
  decodeSearchCursor,
  encodeSearchCursor,
  type Highlight,
  highlightsOf,
  markedWords,
  type SearchInput,
  validateSearch,
} from './domain/search.ts';
import { noSuchConversation } from './lookups.ts';
import { MARK_END, MARK_START, type SearchStore } from './store/search.store.ts';

export interface SearchHit {
  message: MessageRead;
  highlights: Highlight[];
}

/** Message search (contract §10): what the caller may read now, newest first or by relevance, with highlights. */
export class SearchService {
  constructor(private readonly d: { attachments: Attachments; search: SearchStore }) {}

  async search(
    ctx: CallContext,
    input: SearchInput & { cursor?: string | undefined; limit: number },
  ): Promise<Page<SearchHit>> {
    const me = callerOf(ctx);
    const limit = pageLimit(input.limit);
    const { query, filters } = validateSearch(input);
    // A cursor continues the search it came from: the same workspace, caller, query and filters.
    const scope = [me.workspaceId, me.actorId, query, filters];
    const after = decodeSearchCursor(scope, input.cursor);
    const rows = await this.d.search.search({
      ...filters,
      workspaceId: me.workspaceId,
      actorId: me.actorId,
      query,
      marksQuery: markedWords(query),
      after,
      limit: limit + 1,
    });
    if (!rows) throw noSuchConversation();
    const page = rows.slice(0, limit);
    const messages = await this.d.attachments.read(
      ctx,
      page.map((r) => r.hit),
    );
    return {
      items: page.map((r, i) => ({
        message: messages[i]!,
        highlights: highlightsOf(r.marked, r.hit.message.bodyText, MARK_START, MARK_END),
      })),
      nextCursor: rows.length > limit ? encodeSearchCursor(scope, page.at(-1)!.key) : null,
    };
  }
}
