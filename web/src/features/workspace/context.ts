import { createContext, useContext } from 'react';
import type { Caller } from '../../lib/api.ts';

/** What a side panel shows: a thread, the search, the saved messages. */
export type Panel =
  { kind: 'thread'; conversationId: string; messageId: string } | { kind: 'search' } | { kind: 'saved' };

/** The open workspace as every screen inside it sees it: who calls, as which actor, and what it may open. */
export interface WorkspaceView {
  caller: Caller & { workspaceId: string };
  /** The caller's actor id in this workspace (undefined until read). */
  me: string | undefined;
  openConversation: (conversationId: string) => void;
  openPanel: (panel: Panel) => void;
  closePanel: () => void;
}

export const WorkspaceContext = createContext<WorkspaceView | null>(null);

export function useWorkspace(): WorkspaceView {
  const view = useContext(WorkspaceContext);
  if (!view) throw new Error('useWorkspace outside a workspace');
  return view;
}
