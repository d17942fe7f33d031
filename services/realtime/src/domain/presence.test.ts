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
  missingSince: null,
  ...over,
});

describe('reconcile', () => {
  const a = randomUUID();
  const b = randomUUID();

  it('brings an actor online when its channel is occupied, once', () => {
    const first = reconcile([], observed({ actorChannels: new Map([[a, { workspaceId: ws, occupied: true }]]) }), now);
    expect(first.save).toEqual([
      { actorId: a, workspaceId: ws, actorChannel: true, presenceMember: false, since: now, missingSince: null },
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
    expect(r.save).toEqual([
      { actorId: b, workspaceId: ws, actorChannel: false, presenceMember: true, since: now, missingSince: null },
    ]);
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

describe('reconcile, with sweeps that may miss an actor (a node of the provider that did not answer in time)', () => {
  const a = randomUUID();
  const later = new Date('2026-12-01T10:00:30.000Z');
  /** A sweep's observation: every stored actor's channel and its workspace's presence channel, as listed. */
  const sweep = (listed: { actorChannel?: boolean; presenceMember?: boolean } = {}): Observed => ({
    actorChannels: new Map([[a, { workspaceId: ws, occupied: listed.actorChannel ?? false }]]),
    presenceMembers: new Map([[ws, new Set(listed.presenceMember ? [a] : [])]]),
    sweep: true,
  });

  it('keeps an actor one sweep misses online, marked missing since that sweep, and tells no one', () => {
    const r = reconcile([row(a)], sweep(), now);
    expect(r).toEqual({ save: [row(a, { missingSince: now })], remove: [], changes: [] });
  });

  it('takes an actor offline when the next sweep misses it too, since that sweep', () => {
    const r = reconcile([row(a, { missingSince: now })], sweep(), later);
    expect(r.remove).toEqual([a]);
    expect(r.save).toEqual([]);
    expect(r.changes).toEqual([{ workspaceId: ws, actorId: a, status: 'offline', since: later }]);
  });

  it('clears the mark when a sweep finds the actor again, by either reason, and tells no one', () => {
    for (const listed of [{ actorChannel: true }, { presenceMember: true }]) {
      const r = reconcile([row(a, { missingSince: now })], sweep(listed), later);
      expect(r.changes).toEqual([]);
      expect(r.remove).toEqual([]);
      expect(r.save).toEqual([
        row(a, { actorChannel: listed.actorChannel ?? false, presenceMember: listed.presenceMember ?? false }),
      ]);
    }
  });

  it('takes no one offline over a partial sweep between complete ones', () => {
    let stored = [row(a)];
    const changes: unknown[] = [];
    for (const [i, listed] of [true, false, true, false, true].entries()) {
      const r = reconcile(stored, sweep({ actorChannel: listed }), new Date(now.getTime() + i * 30_000));
      stored = r.save.length ? r.save : stored;
      changes.push(...r.changes, ...r.remove);
    }
    expect(changes).toEqual([]);
    expect(stored).toEqual([row(a)]);
  });

  it("clears the mark when a webhook's check finds the actor", () => {
    const r = reconcile(
      [row(a, { missingSince: now })],
      { actorChannels: new Map([[a, { workspaceId: ws, occupied: true }]]), presenceMembers: new Map() },
      later,
    );
    expect(r).toEqual({ save: [row(a)], remove: [], changes: [] });
  });

  it("keeps the mark when a webhook's check leaves the actor online only by a reason it did not observe", () => {
    const marked = row(a, { actorChannel: true, presenceMember: true, missingSince: now });
    const r = reconcile([marked], observed({ presenceMembers: new Map([[ws, new Set()]]) }), later);
    expect(r).toEqual({ save: [{ ...marked, presenceMember: false }], remove: [], changes: [] });
  });

  it("takes an actor offline at once when a webhook's check finds it gone, marked or not", () => {
    for (const missingSince of [null, now]) {
      const r = reconcile(
        [row(a, { missingSince })],
        observed({ actorChannels: new Map([[a, { workspaceId: ws, occupied: false }]]) }),
        later,
      );
      expect(r.remove).toEqual([a]);
      expect(r.changes).toEqual([{ workspaceId: ws, actorId: a, status: 'offline', since: later }]);
    }
  });

  it('brings an actor a sweep lists online at once', () => {
    const r = reconcile([], sweep({ actorChannel: true }), now);
    expect(r.changes).toEqual([{ workspaceId: ws, actorId: a, status: 'online', since: now }]);
  });
});
