import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import type { Conversation } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';

/** The workspace's channels (GET /channels, by name, `q` filtering): open one you are in, join a public one. */
export function BrowseChannels() {
  const { caller, me, openConversation } = useWorkspace();
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const query = q.trim();
  const channels = useQuery({
    queryKey: ['channels', caller.workspaceId, query],
    queryFn: () => api<Conversation[]>(caller, 'GET', query ? `/channels?q=${encodeURIComponent(query)}` : '/channels'),
  });
  const join = useMutation({
    mutationFn: (id: string) => api(caller, 'PUT', `/channels/${id}/members/${me ?? ''}`),
    onSuccess: async (_, id) => {
      await queryClient.invalidateQueries({ queryKey: ['conversations', caller.workspaceId] });
      void queryClient.invalidateQueries({ queryKey: ['channels', caller.workspaceId] });
      openConversation(id);
    },
  });
  return (
    <div className="browse">
      <label>
        Find a channel
        <input type="search" value={q} maxLength={80} onChange={(e) => setQ(e.target.value)} />
      </label>
      <ul aria-label="Channels">
        {channels.data?.map((c) => (
          <li key={c.id}>
            {c.kind === 'private' ? '🔒' : '#'} {c.name}{' '}
            {c.is_member ? (
              <button type="button" onClick={() => openConversation(c.id)} aria-label={`Open ${c.name ?? ''}`}>
                Open
              </button>
            ) : (
              <button
                type="button"
                disabled={!me || join.isPending}
                onClick={() => join.mutate(c.id)}
                aria-label={`Join ${c.name ?? ''}`}
              >
                Join
              </button>
            )}
          </li>
        ))}
      </ul>
      {channels.data?.length === 0 && <p>No channel found.</p>}
      {join.error && <p role="alert">{join.error instanceof ApiError ? join.error.message : 'Not joined.'}</p>}
    </div>
  );
}
