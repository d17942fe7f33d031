import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Conversation, ConversationItem, Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';

const label = (c: Conversation) => (c.name ? `${c.kind === 'private' ? '🔒' : '#'} ${c.name}` : 'Direct conversation');

/** A conversation's name: from the sidebar's list when it is there, else read once (a public channel not joined). */
export function ConversationName({ conversationId }: { conversationId: string }) {
  const { caller } = useWorkspace();
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
  return <span className="conversation-name">{conversation ? label(conversation) : 'Conversation'}</span>;
}
