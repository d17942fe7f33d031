import { createHmac, timingSafeEqual } from 'node:crypto';
import { CHANNEL_PREFIXES } from '@wms/kit/channels';

/** The webhook events that say something about presence; the others (client events, cache misses) are not for us. */
const OCCUPANCY_EVENTS = new Set(['channel_occupied', 'channel_vacated', 'member_added', 'member_removed']);

/** Whether a webhook comes from the provider: its app key, and the hex HMAC-SHA256 of the raw body with the app secret. */
export function isSignedWebhook(
  app: { key: string; secret: string },
  rawBody: Buffer,
  key: string,
  signature: string,
): boolean {
  const expected = createHmac('sha256', app.secret).update(rawBody).digest();
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  // Compared in constant time (the key is no secret, the signature must not leak byte by byte).
  return key === app.key && given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The presence channels a webhook names (actor channels and workspace presence channels), each once, in order; the
 * provider's own `#…` channels and every other channel left out. Undefined when the body is not a webhook.
 */
export function occupancyChannelsOf(rawBody: Buffer): string[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
  const events = (body as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return undefined;
  const channels = new Set<string>();
  for (const e of events as Array<{ name?: unknown; channel?: unknown } | null>) {
    if (!e || typeof e.channel !== 'string' || !OCCUPANCY_EVENTS.has(String(e.name))) continue;
    if (e.channel.startsWith(CHANNEL_PREFIXES.actor) || e.channel.startsWith(CHANNEL_PREFIXES.presence))
      channels.add(e.channel);
  }
  return [...channels];
}
