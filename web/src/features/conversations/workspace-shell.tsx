import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../lib/api.ts';
import type { RealtimeStatus } from '../../lib/realtime.ts';
import type { ConversationItem, Page, Workspace } from '../../lib/types.ts';
import { MessagePane } from '../messages/message-pane.tsx';
import { type Panel, WorkspaceContext } from '../workspace/context.ts';
import { DirectoryProvider } from '../workspace/directory.tsx';
import { SidePanel } from '../workspace/side-panel.tsx';
import { CreateWorkspace } from '../workspaces/create-workspace.tsx';
import { ReceivedInvitations } from '../workspaces/received-invitations.tsx';
import { Sidebar } from './sidebar.tsx';
import { useRealtime } from './use-realtime.ts';

const STATUS_TEXT: Record<RealtimeStatus, string> = {
  connecting: 'Connecting…',
  'catching up': 'Catching up…',
  connected: 'Live',
  offline: 'Offline: reconnecting',
};

/** The signed-in app: a workspace (the first, or the one picked), its conversations, and the open one. */
export function WorkspaceShell({ token, onSignOut }: { token: string; onSignOut: () => void }) {
  const workspaces = useQuery({
    queryKey: ['workspaces'],
    queryFn: () => api<Workspace[]>({ token }, 'GET', '/workspaces'),
  });
  const [picked, setPicked] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const workspaceId = picked ?? workspaces.data?.[0]?.id;
  const opened = (id: string) => {
    setPicked(id);
    setCreating(false);
  };
  return (
    <div className="shell">
      <header>
        <label>
          Workspace
          <select value={workspaceId ?? ''} onChange={(e) => setPicked(e.target.value)}>
            {workspaces.data?.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
          New workspace
        </button>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <ReceivedInvitations token={token} onAccepted={opened} />
      {creating || (workspaces.isSuccess && !workspaceId) ? (
        <CreateWorkspace token={token} onCreated={opened} />
      ) : (
        workspaceId && <Workspace key={workspaceId} token={token} workspaceId={workspaceId} />
      )}
    </div>
  );
}

function Workspace({ token, workspaceId }: { token: string; workspaceId: string }) {
  const caller = useMemo(() => ({ token, workspaceId }), [token, workspaceId]);
  const conversations = useQuery({
    queryKey: ['conversations', workspaceId],
    queryFn: () => api<Page<ConversationItem>>(caller, 'GET', '/conversations?limit=100'),
  });
  const me = useQuery({
    queryKey: ['me', workspaceId],
    queryFn: () => api<{ id: string }>(caller, 'GET', '/workspace/actors/me'),
    staleTime: Infinity,
  });
  const [open, setOpen] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  // The newest conversation opens first, and stays open when another one's new message puts that one on top; one that
  // leaves the list while open (left, or lost) gives way to the newest. One never listed (a search hit in a public
  // channel one has not joined) stays.
  const first = conversations.data?.items[0]?.conversation.id;
  const listed = open !== null && Boolean(conversations.data?.items.some((i) => i.conversation.id === open));
  const seenListed = useRef<string | null>(null);
  useEffect(() => {
    if (open === null || (seenListed.current === open && !listed)) setOpen(first ?? null);
    if (listed) seenListed.current = open;
  }, [open, first, listed]);
  const current = open ?? first ?? null;
  const status = useRealtime(caller, conversations.data?.items.map((i) => i.conversation.id) ?? []);
  const closePanel = useCallback(() => setPanel(null), []);
  const view = useMemo(
    () => ({ caller, me: me.data?.id, openConversation: setOpen, openPanel: setPanel, closePanel }),
    [caller, me.data?.id, closePanel],
  );
  return (
    <WorkspaceContext.Provider value={view}>
      <DirectoryProvider>
        <div className="workspace">
          <div className="toolbar">
            <p className="status" role="status">
              {STATUS_TEXT[status]}
            </p>
            <button type="button" onClick={() => setPanel({ kind: 'search' })}>
              Search
            </button>
            <button type="button" onClick={() => setPanel({ kind: 'saved' })}>
              Saved
            </button>
          </div>
          <Sidebar items={conversations.data?.items ?? []} current={current} />
          {current && <MessagePane key={current} conversationId={current} />}
          {panel && <SidePanel panel={panel} />}
        </div>
      </DirectoryProvider>
    </WorkspaceContext.Provider>
  );
}
