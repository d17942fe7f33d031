import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSocketId, parseChannel } from './channels.ts';

describe('parseChannel', () => {
  const id = randomUUID();

  it('reads the four channels of wms', () => {
    expect(parseChannel(`private-workspace-${id}`)).toEqual({ kind: 'workspace', workspaceId: id });
    expect(parseChannel(`presence-workspace-${id}`)).toEqual({ kind: 'presence', workspaceId: id });
    expect(parseChannel(`private-actor-${id}`)).toEqual({ kind: 'actor', actorId: id });
    expect(parseChannel(`private-conversation-${id}`)).toEqual({ kind: 'conversation', conversationId: id });
  });

  it('knows no other name', () => {
    for (const name of [
      `#server-to-user-${id}`,
      `workspace-${id}`,
      `private-workspace-${id.toUpperCase()}`,
      `private-actor-${id}x`,
      'private-actor-',
      `presence-actor-${id}`,
    ]) {
      expect(parseChannel(name), name).toBeNull();
    }
  });
});

describe('isSocketId', () => {
  it('takes the provider form only', () => {
    expect(isSocketId('123.456')).toBe(true);
    for (const bad of ['', '123', '123.', '.456', '12a.456', '1.2.3', ' 1.2', '1.2\n'])
      expect(isSocketId(bad), bad).toBe(false);
  });
});
