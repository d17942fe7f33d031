import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Message } from '../../lib/types.ts';
import { changeMessageEverywhere } from '../messages/cache.ts';
import { useWorkspace } from '../workspace/context.ts';
import type { SavedMessageState } from './types.ts';

/** The query key of the caller's saved messages in a workspace. */
export const savedKey = (workspaceId: string | undefined) => ['saved-messages', workspaceId];

/** Whether the caller saved the message (its `saved_at`, kept current by the answers and `saved.updated`). */
export const isSaved = (m: Message) => m.saved_at !== null;

/**
 * A save or unsave (an answer in this tab, or `saved.updated` from any of the caller's clients): the message's
 * `saved_at` in every cached list of messages or replies, and the saved list read again.
 */
export function applySavedState(queryClient: QueryClient, workspaceId: string, state: SavedMessageState): void {
  changeMessageEverywhere(queryClient, workspaceId, state.message_id, (m) => ({
    ...m,
    saved_at: state.saved ? state.saved_at : null,
  }));
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
