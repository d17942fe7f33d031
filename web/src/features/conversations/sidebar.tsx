import { Disclosure } from '../../lib/disclosure.tsx';
import type { ConversationItem } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';
import { InvitePeople } from '../workspaces/invite-people.tsx';
import { type Actor, nameOf, PresenceDot, useActors, useOnline } from '../workspace/directory.tsx';
import { BrowseChannels } from './browse-channels.tsx';
import { NewChannel } from './new-channel.tsx';
import { NewDirect } from './new-direct.tsx';

/** A conversation's name as the sidebar shows it: `# name`, `🔒 name`, or a direct one's other participants. */
export function conversationName(item: ConversationItem['conversation'], actors: Map<string, Actor>, me?: string) {
  if (item.kind !== 'direct') return `${item.kind === 'private' ? '🔒' : '#'} ${item.name ?? ''}`;
  const others = item.participant_actor_ids.filter((id) => id !== me);
  return others.length === 0 ? 'Just you' : others.map((id) => nameOf(actors, id)).join(', ');
}

/** The caller's conversations with their unread and mention counts, and the ways to find or start more. */
export function Sidebar({ items, current }: { items: ConversationItem[]; current: string | null }) {
  const { caller, me, openConversation } = useWorkspace();
  const actors = useActors();
  const online = useOnline();
  return (
    <nav aria-label="Conversations" className="sidebar">
      <ul>
        {items.map(({ conversation: c, read_state: r }) => {
          const other = c.kind === 'direct' ? c.participant_actor_ids.find((id) => id !== me) : undefined;
          return (
            <li key={c.id}>
              <button
                type="button"
                aria-current={c.id === current ? 'page' : undefined}
                onClick={() => openConversation(c.id)}
              >
                {other && <PresenceDot online={online.has(other)} />}
                {conversationName(c, actors, me)}
                {r.unread_count > 0 && <span className="badge"> {r.unread_count} unread</span>}
                {r.mention_count > 0 && (
                  <span className="badge mention-badge">
                    {' '}
                    {r.mention_count} {r.mention_count === 1 ? 'mention' : 'mentions'}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {items.length === 0 && <p>You are in no conversation yet: browse the channels to join one.</p>}
      <Disclosure summary="Browse channels">
        <BrowseChannels />
      </Disclosure>
      <Disclosure summary="New direct message">
        <NewDirect />
      </Disclosure>
      <Disclosure summary="New channel">
        <NewChannel caller={caller} onCreated={openConversation} />
      </Disclosure>
      <Disclosure summary="Invite people">
        <InvitePeople />
      </Disclosure>
    </nav>
  );
}
