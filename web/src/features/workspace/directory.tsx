import { type QueryClient, useQuery } from '@tanstack/react-query';
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

/** Every actor of the workspace by id. */
export function useActors(): Map<string, Actor> {
  const { caller } = useWorkspace();
  const actors = useQuery({
    queryKey: actorsKey(caller.workspaceId),
    queryFn: () => api<Actor[]>(caller, 'GET', '/workspace/actors'),
    select: (list) => new Map(list.map((a) => [a.id, a])),
  });
  return actors.data ?? new Map<string, Actor>();
}

/** The ids of the actors online now. */
export function useOnline(): Set<string> {
  const { caller } = useWorkspace();
  const online = useQuery({
    queryKey: presenceKey(caller.workspaceId),
    queryFn: () => api<ActorPresence[]>(caller, 'GET', '/realtime/presence'),
    select: (list) => new Set(list.filter((p) => p.status === 'online').map((p) => p.actor_id)),
  });
  return online.data ?? new Set<string>();
}

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
