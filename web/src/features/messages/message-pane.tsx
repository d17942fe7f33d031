import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api, type Caller } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import { conversationKey } from './cache.ts';
import { Composer } from './composer.tsx';
import { MessageItem } from './message-item.tsx';

/**
 * A conversation's messages, oldest at the top, and the composer: the newest 50 first, older pages read as the person
 * scrolls up (or asks with the button), so a long channel is never read whole.
 */
export function MessagePane({ conversationId }: { conversationId: string }) {
  const { caller, me } = useWorkspace();
  const messages = useInfiniteQuery({
    queryKey: conversationKey(caller.workspaceId, conversationId),
    queryFn: ({ pageParam }) =>
      api<Page<Message>>(
        caller,
        'GET',
        `/conversations/${conversationId}/messages?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
  const items = messages.data?.pages.flatMap((p) => p.items) ?? [];
  const scroller = useRef<HTMLDivElement>(null);
  const [older, setOlder] = useState<HTMLButtonElement | null>(null);
  const loadOlder = () => {
    if (messages.hasNextPage && !messages.isFetchingNextPage) void messages.fetchNextPage();
  };
  useKeptScroll(scroller, items[0]?.id, items.at(-1)?.id);
  // Seen again after each page (`items.length`): a page that leaves the button in view reads the next one.
  useWhenSeen(scroller, older, loadOlder, items.length);
  useMarkRead(caller, conversationId, items[0]?.id);
  return (
    <section className="messages" aria-label="Messages">
      <div className="scroller" ref={scroller}>
        {messages.hasNextPage && (
          <button type="button" ref={setOlder} onClick={loadOlder} disabled={messages.isFetchingNextPage}>
            {messages.isFetchingNextPage ? 'Loading older messages…' : 'Load older messages'}
          </button>
        )}
        <ol>
          {[...items].reverse().map((m) => (
            <li key={m.id}>
              <MessageItem caller={caller} message={m} me={me} />
            </li>
          ))}
        </ol>
      </div>
      <Composer conversationId={conversationId} />
    </section>
  );
}

/**
 * Where the list stays as it changes: at the bottom when it was there and a message arrives (and on first showing),
 * at the same messages when older ones are added above.
 */
function useKeptScroll(ref: RefObject<HTMLDivElement | null>, newest?: string, oldest?: string): void {
  // Nothing seen yet, even when the conversation's pages are cached: its first showing goes to the bottom.
  const seen = useRef<{ newest?: string; oldest?: string; fromBottom: number }>({ fromBottom: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      seen.current.fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [ref]);
  useLayoutEffect(() => {
    const el = ref.current;
    const last = seen.current;
    if (!el) return;
    if (oldest !== last.oldest && last.oldest !== undefined && newest === last.newest) {
      el.scrollTop = el.scrollHeight - el.clientHeight - last.fromBottom;
    } else if (newest !== last.newest && last.fromBottom < 80) {
      el.scrollTop = el.scrollHeight;
    }
    seen.current = { newest, oldest, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight };
  }, [ref, newest, oldest]);
}

/** Calls `onSeen` whenever `target` is within 200 px of the scroller's view: as it comes in, and again at each `round`. */
function useWhenSeen(
  root: RefObject<HTMLElement | null>,
  target: HTMLElement | null,
  onSeen: () => void,
  round: number,
): void {
  const latest = useRef(onSeen);
  latest.current = onSeen;
  useEffect(() => {
    if (!target || !root.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && latest.current(), {
      root: root.current,
      rootMargin: '200px 0px 0px 0px',
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [root, target, round]);
}

/** Moves the caller's read mark to the newest message shown, once per newest message. */
function useMarkRead(caller: Caller, conversationId: string, newest: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!newest) return;
    void api(caller, 'PUT', `/conversations/${conversationId}/read-state`, { last_read_message_id: newest })
      .then(() => queryClient.invalidateQueries({ queryKey: ['conversations', caller.workspaceId] }))
      .catch(() => undefined);
  }, [caller.token, caller.workspaceId, conversationId, newest, queryClient]);
}
