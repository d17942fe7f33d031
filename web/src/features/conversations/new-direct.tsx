import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import type { Conversation } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import type { Actor } from '../workspace/directory.tsx';

/** Up to 8 other people picked by name (GET /workspace/actors?q=), then POST /conversations/direct opens it. */
export function NewDirect() {
  const { caller, me, openConversation } = useWorkspace();
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<Actor[]>([]);
  const query = q.trim();
  const found = useQuery({
    queryKey: ['actors-found', caller.workspaceId, query],
    queryFn: () => api<Actor[]>(caller, 'GET', `/workspace/actors?q=${encodeURIComponent(query)}`),
    enabled: query !== '',
  });
  const start = useMutation({
    mutationFn: (ids: string[]) => api<Conversation>(caller, 'POST', '/conversations/direct', { actor_ids: ids }),
    onSuccess: async (conversation) => {
      await queryClient.invalidateQueries({ queryKey: ['conversations', caller.workspaceId] });
      setPicked([]);
      setQ('');
      openConversation(conversation.id);
    },
  });
  const candidates = (found.data ?? []).filter(
    (a) => a.id !== me && !a.deactivated_at && !picked.some((p) => p.id === a.id),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (picked.length > 0) start.mutate(picked.map((a) => a.id));
  };
  return (
    <form onSubmit={submit} aria-label="New direct message">
      <label>
        Find people
        <input type="search" value={q} maxLength={80} onChange={(e) => setQ(e.target.value)} />
      </label>
      <ul aria-label="People found">
        {candidates.map((a) => (
          <li key={a.id}>
            <button type="button" disabled={picked.length >= 8} onClick={() => setPicked([...picked, a])}>
              Add {a.display_name}
            </button>
          </li>
        ))}
      </ul>
      {picked.length > 0 && (
        <ul aria-label="People picked">
          {picked.map((a) => (
            <li key={a.id}>
              {a.display_name}{' '}
              <button type="button" onClick={() => setPicked(picked.filter((p) => p.id !== a.id))}>
                Remove {a.display_name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {start.error && <p role="alert">{start.error instanceof ApiError ? start.error.message : 'Not started.'}</p>}
      <button type="submit" disabled={picked.length === 0 || start.isPending}>
        Start the conversation
      </button>
    </form>
  );
}
