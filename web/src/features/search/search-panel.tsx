import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../lib/api.ts';
import type { Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import { ConversationName } from './conversation-name.tsx';
import { highlighted } from './highlight.tsx';
import type { SearchHit, SearchSort } from './types.ts';
import './search.css';

/** The search: a query (Enter submits) and its sort, its hits with the matched words marked, more on request. */
export function SearchPanel() {
  const [draft, setDraft] = useState('');
  const [sort, setSort] = useState<SearchSort>('newest');
  const [query, setQuery] = useState<string | null>(null);
  const search = useSearch(query, sort);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = draft.trim();
    if (q === '') return;
    // The same search again reads again: a post is searchable at once.
    if (q === query) void search.refetch();
    else setQuery(q);
  };
  return (
    <div className="search-panel">
      <form role="search" aria-label="Message search" onSubmit={submit}>
        <label>
          Search messages
          <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={500} />
        </label>
        <label>
          Sort
          <select value={sort} onChange={(e) => setSort(e.target.value as SearchSort)}>
            <option value="newest">Newest first</option>
            <option value="relevance">Most relevant</option>
          </select>
        </label>
      </form>
      {search.isError && <p role="alert">{search.error.message}</p>}
      {search.isSuccess && <SearchHits pages={search.data.pages} />}
      {search.hasNextPage && (
        <button type="button" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
          Load more
        </button>
      )}
    </div>
  );
}

function useSearch(query: string | null, sort: SearchSort) {
  const { caller } = useWorkspace();
  return useInfiniteQuery({
    queryKey: ['search', caller.workspaceId, query, sort],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ q: query ?? '', sort, limit: '20' });
      if (pageParam) params.set('cursor', pageParam);
      return api<Page<SearchHit>>(caller, 'GET', `/search/messages?${params}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: query !== null,
  });
}

function SearchHits({ pages }: { pages: Page<SearchHit>[] }) {
  const { openConversation } = useWorkspace();
  const hits = pages.flatMap((p) => p.items);
  if (hits.length === 0) return <p className="empty">No messages match.</p>;
  return (
    <ol className="search-hits" aria-label="Search results">
      {hits.map(({ message, highlights }) => (
        <li key={message.id}>
          <button type="button" className="hit" onClick={() => openConversation(message.conversation_id)}>
            <ConversationName conversationId={message.conversation_id} />
            <time dateTime={message.created_at}>{new Date(message.created_at).toLocaleString()}</time>
            <span className="hit-text">{highlighted(message.body_text, highlights)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
