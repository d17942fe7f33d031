import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Message, Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import type { SavableMessage, SavedMessageState } from './types.ts';

/** The query key of the caller's saved messages in a workspace. */
export const savedKey = (workspaceId: string | undefined) => ['saved-messages', workspaceId];

/** Whether the caller saved the message (its `saved_at`, kept current by the answers and `saved.updated`). */
export const isSaved = (m: Message) => Boolean((m as SavableMessage).saved_at);

/** An event's message carries `saved_at` null (a bookmark is the caller's alone): keep the one shown. */
export const keepSavedAt = (shown: Message, incoming: Message): Message =>
  ({
    ...incoming,
    saved_at: (shown as SavableMessage).saved_at ?? null,
  }) as SavableMessage;

/**
 * A save or unsave (an answer in this tab, or `saved.updated` from any of the caller's clients): the message's
 * `saved_at` in every cached list of messages or replies, and the saved list read again.
 */
export function applySavedState(queryClient: QueryClient, workspaceId: string, state: SavedMessageState): void {
  queryClient.setQueriesData<Page<Message>>(
    { predicate: (q) => ['messages', 'replies'].includes(q.queryKey[0] as string) && q.queryKey[1] === workspaceId },
    (page) =>
      page?.items.some((m) => m.id === state.message_id)
        ? {
            ...page,
            items: page.items.map((m) =>
              m.id === state.message_id ? ({ ...m, saved_at: state.saved ? state.saved_at : null } as Message) : m,
            ),
          }
        : page,
  );
  void queryClient.invalidateQueries({ queryKey: savedKey(workspaceId) });
}

/** Saves or unsaves a message for the caller. */
export function useSaveMessage() {
  const { caller } = useWorkspace();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ message, save }: { message: Pick<Message, 'id' | 'conversation_id'>; save: boolean }) =>
      api<SavedMessageState>(
        caller,
        save ? 'PUT' : 'DELETE',
        `/conversations/${message.conversation_id}/messages/${message.id}/saved`,
      ),
    onSuccess: (state) => applySavedState(queryClient, caller.workspaceId, state),
  });
}
