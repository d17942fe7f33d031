import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Message, Page } from '../../lib/types.ts';

// A conversation's messages in the query cache: pages of GET .../messages, newest first, the first page the newest
// (paging goes back in time as the person scrolls up). Answers and events change them here, in place.

export type MessagePages = InfiniteData<Page<Message>, string | null>;

export const conversationKey = (workspaceId: string | undefined, conversationId: string) => [
  'messages',
  workspaceId,
  conversationId,
];

/** The query key of a thread's replies. */
export const repliesKey = (workspaceId: string | undefined, conversationId: string, rootId: string) => [
  'replies',
  workspaceId,
  conversationId,
  rootId,
];

/** A message written or changed: replaced wherever it is shown; a new one (`created`) goes on top of the newest page. */
export function putMessage(
  queryClient: QueryClient,
  workspaceId: string | undefined,
  message: Message,
  created: boolean,
) {
  queryClient.setQueryData<MessagePages>(conversationKey(workspaceId, message.conversation_id), (data) => {
    if (!data) return data;
    const known = data.pages.some((p) => p.items.some((m) => m.id === message.id));
    // An event's message carries `saved_at` null (a bookmark is the caller's alone): the one shown is kept.
    if (known) return mapMessages(data, (m) => (m.id === message.id ? { ...message, saved_at: m.saved_at } : m));
    const [newest, ...older] = data.pages;
    // Only a message newer than every one shown goes on top (ids are UUIDv7: their order is their age); an older one
    // (an event read again by a catch-up) is in a page not read yet, or was never shown.
    const top = newest?.items[0];
    if (!created || !newest || (top && message.id < top.id)) return data;
    return { ...data, pages: [{ ...newest, items: [message, ...newest.items] }, ...older] };
  });
}

/** A reply written or changed, in its thread's cached replies (a plain page, newest first), as `putMessage` does. */
export function putReply(
  queryClient: QueryClient,
  workspaceId: string | undefined,
  rootId: string,
  message: Message,
  created: boolean,
): void {
  queryClient.setQueryData<Page<Message>>(repliesKey(workspaceId, message.conversation_id, rootId), (page) => {
    if (!page) return page;
    if (page.items.some((m) => m.id === message.id))
      return {
        ...page,
        items: page.items.map((m) => (m.id === message.id ? { ...message, saved_at: m.saved_at } : m)),
      };
    return created ? { ...page, items: [message, ...page.items] } : page;
  });
}

/** Changes one message where it is shown. */
export function changeMessage(
  queryClient: QueryClient,
  workspaceId: string | undefined,
  conversationId: string,
  messageId: string,
  change: (m: Message) => Message,
): void {
  const f = (m: Message) => (m.id === messageId ? change(m) : m);
  queryClient.setQueryData<MessagePages>(conversationKey(workspaceId, conversationId), (data) =>
    data ? mapMessages(data, f) : data,
  );
  // A reply is in its thread's replies; a thread's root may be read on its own.
  queryClient.setQueriesData<Page<Message>>({ queryKey: ['replies', workspaceId, conversationId] }, (page) =>
    page ? { ...page, items: page.items.map(f) } : page,
  );
  queryClient.setQueriesData<Message>({ queryKey: ['thread-root', workspaceId, conversationId] }, (m) => m && f(m));
}

/** Changes one message wherever the workspace's cached conversations and threads show it. */
export function changeMessageEverywhere(
  queryClient: QueryClient,
  workspaceId: string,
  messageId: string,
  change: (m: Message) => Message,
): void {
  const f = (m: Message) => (m.id === messageId ? change(m) : m);
  queryClient.setQueriesData<MessagePages>({ queryKey: ['messages', workspaceId] }, (data) =>
    data ? mapMessages(data, f) : data,
  );
  queryClient.setQueriesData<Page<Message>>({ queryKey: ['replies', workspaceId] }, (page) =>
    page ? { ...page, items: page.items.map(f) } : page,
  );
  queryClient.setQueriesData<Message>({ queryKey: ['thread-root', workspaceId] }, (m) => m && f(m));
}

const mapMessages = (data: MessagePages, f: (m: Message) => Message): MessagePages => ({
  ...data,
  pages: data.pages.map((p) => ({ ...p, items: p.items.map(f) })),
});
