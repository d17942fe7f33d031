import { createLogger } from '@wms/kit/logger';
import { describe, expect, it } from 'vitest';
import type { WalStream } from './adapters/wal-stream.ts';
import { followEvents, slotLost } from './event-follower.ts';

const log = createLogger('event-follower-test', 'silent');

/** Postgres's error as pg hands it over. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('slotLost', () => {
  it('tells a lost slot (gone, or invalidated) from a missing publication and a slot another worker reads', () => {
    expect(slotLost('42704', 'replication slot "wms_events_x" does not exist')).toBe(true);
    expect(slotLost('55000', 'can no longer get changes from replication slot "wms_events_x"')).toBe(true);
    expect(slotLost('42704', 'publication "wms_events" does not exist')).toBe(false);
    expect(slotLost('55006', 'replication slot "wms_events_x" is active for PID 42')).toBe(false);
    expect(slotLost(undefined, 'Connection terminated unexpectedly')).toBe(false);
  });
});

describe('followEvents', () => {
  it('makes an invalidated slot again, then follows it; a slot another worker reads is left alone', async () => {
    const failures = [
      pgError('55006', 'replication slot "s" is active for PID 42'),
      pgError('55000', 'can no longer get changes from replication slot "s"'),
    ];
    let recreated = 0;
    let streaming!: () => void;
    const streamed = new Promise<void>((resolve) => (streaming = resolve));
    const follower = followEvents({
      connect: async () => {
        const failure = failures.shift();
        let end = () => {};
        const done = failure ? Promise.reject(failure) : new Promise<void>((resolve) => (end = resolve));
        done.catch(() => {});
        if (!failure) streaming();
        const stream: WalStream = {
          started: failure ? done : Promise.resolve(),
          done,
          acknowledge: () => {},
          pause: () => {},
          resume: () => {},
          close: async () => end(),
        };
        return stream;
      },
      transact: async () => {
        throw new Error('nothing is stored here');
      },
      events: { insert: async () => 0 },
      stored: () => {},
      log,
      retryMs: 1,
      recreateSlot: async () => recreated++,
    });
    await streamed;
    expect(recreated).toBe(1);
    await follower.stop();
  });
});
