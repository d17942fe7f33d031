import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Observed, type PresenceState, reconcile } from './presence.ts';

const now = new Date('2026-12-01T10:00:00.000Z');
const earlier = new Date('2026-12-01T09:00:00.000Z');
const ws = randomUUID();
const observed = (o: Partial<Observed> = {}): Observed => ({
  actorChannels: new Map(),
  presenceMembers: new Map(),
  ...o,
});
const row = (actorId: string, over: Partial<PresenceState> = {}): PresenceState => ({
  actorId,
  workspaceId: ws,
  actorChannel: true,
  presenceMember: false,
  since: earlier,
  ...over,
});

describe('reconcile', () => {
  const a = randomUUID();
  const b = randomUUID();

  it('brings an actor online when its channel is occupied, once', () => {
    const first = reconcile([], observed({ actorChannels: new Map([[a, { workspaceId: ws, occupied: true }]]) }), now);
    expect(first.save).toEqual([
      { actorId: a, workspaceId: ws, actorChannel: true, presenceMember: false, since: now },
    ]);
    expect(first.changes).toEqual([{ workspaceId: ws, actorId: a, status: 'online', since: now }]);
    const again = reconcile(
      first.save,
      observed({ actorChannels: new Map([[a, { workspaceId: ws, occupied: true }]]) }),
      now,
    );
    expect(again).toEqual({ save: [], remove: [], changes: [] });
  });

  it('keeps an actor online while one reason holds, with its first since', () => {
    const r = reconcile(
      [row(a, { presenceMember: true })],
      observed({ actorChannels: new Map([[a, { workspaceId: ws, occupied: false }]]) }),
      now,
    );
    expect(r.save).toEqual([row(a, { actorChannel: false, presenceMember: true })]);
    expect(r.changes).toEqual([]);
  });

  it('takes a presence channel as the whole truth of its members', () => {
    const r = reconcile(
      [row(a, { actorChannel: false, presenceMember: true })],
      observed({ presenceMembers: new Map([[ws, new Set([b])]]) }),
      now,
    );
    expect(r.remove).toEqual([a]);
    expect(r.save).toEqual([{ actorId: b, workspaceId: ws, actorChannel: false, presenceMember: true, since: now }]);
    expect(r.changes).toEqual(
      expect.arrayContaining([
        { workspaceId: ws, actorId: a, status: 'offline', since: now },
        { workspaceId: ws, actorId: b, status: 'online', since: now },
      ]),
    );
  });

  it('leaves what was not observed as stored', () => {
    expect(reconcile([row(a)], observed({ presenceMembers: new Map([[randomUUID(), new Set()]]) }), now)).toEqual({
      save: [],
      remove: [],
      changes: [],
    });
  });
});
