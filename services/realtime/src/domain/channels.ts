import { CHANNEL_PREFIXES, type ChannelKind } from '@wms/kit/channels';
import { isUuid } from '@wms/kit/ids';

/** The provider channels of wms (contract §7), by what they are about. */
export type Channel =
  | { kind: 'workspace'; workspaceId: string }
  | { kind: 'presence'; workspaceId: string }
  | { kind: 'actor'; actorId: string }
  | { kind: 'conversation'; conversationId: string };

/** What a channel name is about; null for any name wms does not use (the provider's own `#…` channels included). */
export function parseChannel(name: string): Channel | null {
  for (const [kind, prefix] of Object.entries(CHANNEL_PREFIXES) as Array<[ChannelKind, string]>) {
    if (!name.startsWith(prefix)) continue;
    const id = name.slice(prefix.length);
    if (!isUuid(id)) return null;
    switch (kind) {
      case 'workspace':
      case 'presence':
        return { kind, workspaceId: id };
      case 'actor':
        return { kind, actorId: id };
      case 'conversation':
        return { kind, conversationId: id };
    }
  }
  return null;
}

/** The form of a socket id the provider hands out (`1234.5678`); anything else is not a connection. */
export const isSocketId = (socketId: string): boolean => /^\d{1,20}\.\d{1,20}$/.test(socketId);
