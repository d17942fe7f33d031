import Pusher from 'pusher';
import type { ChannelSigner, Member } from '../auth.service.ts';
import type { EventTrigger } from '../delivery.service.ts';
import type { JsonObject } from '../domain/events.ts';
import type { ProviderSettings } from '../domain/provider.ts';
import type { ChannelInfo } from '../occupancy.service.ts';

/** A call to the provider's HTTP API failed, or the provider answered it with an error. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** The `pusher` SDK for the settings: a self-hosted provider at its host and port, or Pusher's hosted cluster (TLS). */
export function pusherClient(p: ProviderSettings, timeoutMs = 5000): Pusher {
  const base = { appId: p.appId, key: p.key, secret: p.secret, timeout: timeoutMs };
  return p.host === undefined
    ? new Pusher({ ...base, cluster: p.cluster, useTLS: true })
    : new Pusher({ ...base, host: p.host, port: String(p.port), useTLS: p.useTls });
}

/**
 * The body of an API answer, or the error it holds. Soketi answers errors (a wrong secret, a batch too large, an
 * oversize event) with HTTP 200 and `{error, code}`, which the SDK takes for success; the SDK rejects only statuses ≥ 400.
 */
async function answerOf(call: Promise<{ json(): Promise<unknown> }>): Promise<JsonObject> {
  let body: unknown;
  try {
    body = await (await call).json();
  } catch (err) {
    const e = err as { message?: string; status?: number; body?: string };
    throw new ProviderError(
      `realtime provider call failed: ${e.message ?? String(err)}${e.body ? ` (${e.body.slice(0, 200)})` : ''}`,
      e.status,
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ProviderError('realtime provider answered something other than a JSON object');
  const answer = body as JsonObject;
  if ('error' in answer) {
    const code = typeof answer.code === 'number' ? answer.code : undefined;
    throw new ProviderError(`realtime provider error ${code ?? ''}: ${String(answer.error)}`.replace('  ', ' '), code);
  }
  return answer;
}

/** The provider behind the service's interfaces: signing, triggering, and channel state. */
export class PusherProvider implements ChannelSigner, EventTrigger, ChannelInfo {
  constructor(private readonly pusher: Pusher) {}

  authorizeChannel(socketId: string, channel: string, member?: Member): { auth: string; channelData: string | null } {
    const signed = member
      ? this.pusher.authorizeChannel(socketId, channel, { user_id: member.userId, user_info: member.userInfo })
      : this.pusher.authorizeChannel(socketId, channel);
    return { auth: signed.auth, channelData: signed.channel_data ?? null };
  }

  authenticateUser(socketId: string, user: { id: string }): { auth: string; userData: string } {
    const signed = this.pusher.authenticateUser(socketId, user);
    return { auth: signed.auth, userData: signed.user_data };
  }

  async trigger(events: Array<{ channel: string; name: string; data: JsonObject }>): Promise<void> {
    if (events.length === 0) return;
    await answerOf(
      this.pusher.triggerBatch(events.map((e) => ({ channel: e.channel, name: e.name, data: JSON.stringify(e.data) }))),
    );
  }

  /** Refused: a malformed or oversize event (400, 413), which a retry would send unchanged. */
  isRefusal(err: unknown): boolean {
    return err instanceof ProviderError && (err.code === 400 || err.code === 413);
  }

  async disconnectUser(userId: string): Promise<void> {
    await answerOf(this.pusher.terminateUserConnections(userId));
  }

  async isOccupied(channel: string): Promise<boolean> {
    const info = await answerOf(this.pusher.get({ path: `/channels/${channel}` }));
    return info.occupied === true;
  }

  async members(channel: string): Promise<string[]> {
    const { users } = await answerOf(this.pusher.get({ path: `/channels/${channel}/users` }));
    if (!Array.isArray(users)) throw new ProviderError(`realtime provider listed no users of ${channel}`);
    return users.flatMap((u: unknown) => {
      const id = (u as { id?: unknown } | null)?.id;
      return typeof id === 'string' ? [id] : [];
    });
  }

  async occupiedChannels(prefix: string): Promise<string[]> {
    const { channels } = await answerOf(this.pusher.get({ path: '/channels', params: { filter_by_prefix: prefix } }));
    if (channels === null || typeof channels !== 'object')
      throw new ProviderError('realtime provider listed no channels');
    return Object.entries(channels as Record<string, { occupied?: unknown } | null>)
      .filter(([name, info]) => name.startsWith(prefix) && info?.occupied !== false)
      .map(([name]) => name);
  }
}
