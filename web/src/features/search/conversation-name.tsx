import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Conversation, ConversationItem, Page } from '../../lib/types.ts';
import { conversationName } from '../conversations/sidebar.tsx';
import { useWorkspace } from '../workspace/context.ts';
import { useActors } from '../workspace/directory.tsx';

/** A conversation's name: from the sidebar's list when it is there, else read once (a public channel not joined). */
export function ConversationName({ conversationId }: { conversationId: string }) {
  const { caller, me } = useWorkspace();
  const actors = useActors();
  const queryClient = useQueryClient();
  const listed = queryClient
    .getQueryData<Page<ConversationItem>>(['conversations', caller.workspaceId])
    ?.items.find((i) => i.conversation.id === conversationId)?.conversation;
  const read = useQuery({
    queryKey: ['conversation', caller.workspaceId, conversationId],
    queryFn: () => api<Conversation>(caller, 'GET', `/channels/${conversationId}`),
    enabled: !listed,
    staleTime: Infinity,
  });
  const conversation = listed ?? read.data;
  return (
    <span className="conversation-name">
      {conversation ? conversationName(conversation, actors, me) : 'Conversation'}
    </span>
  );
}
