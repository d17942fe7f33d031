import { type QueryClient, useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { api } from '../../lib/api.ts';
import { useWorkspace } from './context.ts';

// Who is in the workspace and who is online: GET /workspace/actors (not paged, every actor with removed members) and
// GET /realtime/presence, each read once per workspace and kept current by events (actor.updated, presence.updated).

export interface Actor {
  id: string;
  kind: 'user' | 'agent';
  display_name: string;
  deactivated_at: string | null;
}

export interface ActorPresence {
  actor_id: string;
  status: 'online' | 'offline';
  since: string;
}

const actorsKey = (workspaceId: string) => ['actors', workspaceId];
const presenceKey = (workspaceId: string) => ['presence', workspaceId];

const byId = (list: Actor[]) => new Map(list.map((a) => [a.id, a]));
const onlineIds = (list: ActorPresence[]) => new Set(list.filter((p) => p.status === 'online').map((p) => p.actor_id));

interface Directory {
  actors: Map<string, Actor>;
  online: Set<string>;
}

const DirectoryContext = createContext<Directory>({ actors: new Map(), online: new Set() });

/** Reads the directory once for everything inside it (each message's byline, the sidebar, the pickers). */
export function DirectoryProvider({ children }: { children: ReactNode }) {
  const { caller } = useWorkspace();
  const actors = useQuery({
    queryKey: actorsKey(caller.workspaceId),
    queryFn: () => api<Actor[]>(caller, 'GET', '/workspace/actors'),
    select: byId,
  });
  const online = useQuery({
    queryKey: presenceKey(caller.workspaceId),
    queryFn: () => api<ActorPresence[]>(caller, 'GET', '/realtime/presence'),
    select: onlineIds,
  });
  const directory = useMemo(
    () => ({ actors: actors.data ?? new Map<string, Actor>(), online: online.data ?? new Set<string>() }),
    [actors.data, online.data],
  );
  return <DirectoryContext.Provider value={directory}>{children}</DirectoryContext.Provider>;
}

/** Every actor of the workspace by id. */
export const useActors = (): Map<string, Actor> => useContext(DirectoryContext).actors;

/** The ids of the actors online now. */
export const useOnline = (): Set<string> => useContext(DirectoryContext).online;

/** An actor's name, or a stand-in until the directory is read. */
export const nameOf = (actors: Map<string, Actor>, id: string): string => actors.get(id)?.display_name ?? 'Someone';

/** Applies `actor.updated` and `presence.updated` to the cached directory. */
export function applyDirectoryEvent(queryClient: QueryClient, workspaceId: string, event: string, data: unknown): void {
  if (event === 'actor.updated') {
    const actor = (data as { actor: Actor }).actor;
    queryClient.setQueryData<Actor[]>(
      actorsKey(workspaceId),
      (list) =>
        list &&
        (list.some((a) => a.id === actor.id) ? list.map((a) => (a.id === actor.id ? actor : a)) : [...list, actor]),
    );
  } else if (event === 'presence.updated') {
    const presence = (data as { presence: ActorPresence }).presence;
    queryClient.setQueryData<ActorPresence[]>(
      presenceKey(workspaceId),
      (list) => list && [...list.filter((p) => p.actor_id !== presence.actor_id), presence],
    );
  }
}

/** A dot that says whether the actor is online, with words for screen readers. */
export function PresenceDot({ online }: { online: boolean }) {
  return (
    <span className={online ? 'presence online' : 'presence'} role="img" aria-label={online ? 'online' : 'offline'} />
  );
}
