import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSignedWebhook, occupancyChannelsOf } from './webhook.ts';

const app = { key: 'app-key', secret: 'app-secret' };
const sign = (body: Buffer, secret = app.secret) => createHmac('sha256', secret).update(body).digest('hex');

describe('isSignedWebhook', () => {
  const body = Buffer.from('{"time_ms":1,"events":[]}');

  it('accepts the app key with the HMAC of the raw body, in either case of hex', () => {
    expect(isSignedWebhook(app, body, 'app-key', sign(body))).toBe(true);
    expect(isSignedWebhook(app, body, 'app-key', sign(body).toUpperCase())).toBe(true);
  });

  it('refuses another key, another secret, another body, and no signature', () => {
    expect(isSignedWebhook(app, body, 'other-key', sign(body))).toBe(false);
    expect(isSignedWebhook(app, body, 'app-key', sign(body, 'other-secret'))).toBe(false);
    expect(isSignedWebhook(app, Buffer.from(`${body.toString()} `), 'app-key', sign(body))).toBe(false);
    expect(isSignedWebhook(app, body, 'app-key', '')).toBe(false);
    expect(isSignedWebhook(app, body, 'app-key', sign(body).slice(2))).toBe(false);
  });
});

describe('occupancyChannelsOf', () => {
  it('names the actor and presence channels of occupancy events, each once, without # channels', () => {
    const actor = `private-actor-${randomUUID()}`;
    const presence = `presence-workspace-${randomUUID()}`;
    const events = [
      { name: 'channel_occupied', channel: actor },
      { name: 'channel_vacated', channel: actor },
      { name: 'member_added', channel: presence, user_id: 'a' },
      { name: 'channel_occupied', channel: '#server-to-user-a' },
      { name: 'channel_occupied', channel: `private-conversation-${randomUUID()}` },
      { name: 'client_event', channel: `private-actor-${randomUUID()}` },
    ];
    expect(occupancyChannelsOf(Buffer.from(JSON.stringify({ time_ms: 1, events })))).toEqual([actor, presence]);
  });

  it('refuses a body that is not a webhook', () => {
    expect(occupancyChannelsOf(Buffer.from('not json'))).toBeUndefined();
    expect(occupancyChannelsOf(Buffer.from('{"events":{}}'))).toBeUndefined();
    expect(occupancyChannelsOf(Buffer.from('null'))).toBeUndefined();
  });
});
