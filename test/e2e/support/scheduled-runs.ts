import type { Redis } from '@wms/kit/redis';

/**
 * A periodic job's runs, read from its queue's event stream (`<prefix>:bull:<queue>:events`): every worker of the
 * queue, on whichever replica, writes there when it takes a job (`active`) and when the job ends, and the scheduler
 * writes there when it plans the next period's job (`added`). Stream entries are ordered and stamped by Redis's clock,
 * so which worker ran what, and when, is read from one place rather than pieced together from each process's counters.
 */

/** One entry of a queue's event stream. */
export interface QueueEvent {
  /** Redis's clock when the entry was written: the milliseconds of its stream id. */
  at: number;
  event: string;
  jobId: string;
  /** The job's name (`added` entries only). */
  name?: string;
}

/** Where a read of a queue's events from now on starts, by Redis's clock (which stamps the entries). */
export async function streamNow(redis: Redis): Promise<string> {
  const [seconds, micros] = await redis.time();
  return `${Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)}-0`;
}

/** The events of a queue (its stream's key: BullMQ's `queue.keys.events`) from `from` on, in the order written. */
export async function eventsSince(redis: Redis, key: string, from: string): Promise<QueueEvent[]> {
  const entries = await redis.xrange(key, from, '+');
  return entries.map(([id, list]) => {
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < list.length; i += 2) fields.set(list[i]!, list[i + 1]!);
    return {
      at: Number(id.split('-')[0]),
      event: fields.get('event') ?? '',
      jobId: fields.get('jobId') ?? '',
      name: fields.get('name'),
    };
  });
}

/** A period of a job scheduler (`every`): its job, `repeat:<scheduler id>:<slot>`, planned for the slot's millisecond. */
export interface Period {
  jobId: string;
  slot: number;
  /** When the scheduler planned it (its `added` entry), if that was within the read. */
  addedAt: number | undefined;
}

/** What the stream says about the runs of a scheduled job from the first period a worker took to the `count`th. */
export interface ScheduledRuns {
  /** The first `count` periods a worker took, in the order taken. */
  periods: Period[];
  /** Every run of a job of that name taken from the first of those periods to the last, whatever its id, in order. */
  runs: string[];
  /** The periods the scheduler planned meanwhile (after taking the first, up to taking the last), in order. */
  planned: string[];
  /** What happened to each of `runs` from its being taken on: `active`, then how it ended (`completed`, ...). */
  histories: string[][];
}

/**
 * The runs of scheduler `scheduler`'s job `name` over its first `count` periods in `events`, once every one of them
 * has ended (undefined before).
 */
export function scheduledRuns(
  events: QueueEvent[],
  scheduler: string,
  name: string,
  count: number,
): ScheduledRuns | undefined {
  const prefix = `repeat:${scheduler}:`;
  const names = new Map(events.filter((e) => e.event === 'added').map((e) => [e.jobId, e.name]));
  const isRun = (e: QueueEvent) => e.event === 'active' && (e.jobId.startsWith(prefix) || names.get(e.jobId) === name);
  // Where each of the first `count` periods was first taken.
  const taken: number[] = [];
  const seen = new Set<string>();
  for (const [i, e] of events.entries()) {
    if (taken.length === count) break;
    if (e.event !== 'active' || !e.jobId.startsWith(prefix) || seen.has(e.jobId)) continue;
    seen.add(e.jobId);
    taken.push(i);
  }
  if (taken.length < count) return undefined;
  const window = events.slice(taken[0], taken[count - 1]! + 1);
  const runs = window.filter(isRun).map((e) => e.jobId);
  const histories = window.flatMap((e, i) =>
    isRun(e)
      ? [
          events
            .slice(taken[0]! + i)
            .filter((later) => later.jobId === e.jobId)
            .map((later) => later.event),
        ]
      : [],
  );
  if (!histories.every((h) => h.includes('completed') || h.includes('failed'))) return undefined;
  const periods = taken.map((i) => {
    const jobId = events[i]!.jobId;
    const added = events.find((e) => e.event === 'added' && e.jobId === jobId);
    return { jobId, slot: Number(jobId.slice(prefix.length)), addedAt: added?.at };
  });
  const planned = window.filter((e) => e.event === 'added' && e.jobId.startsWith(prefix)).map((e) => e.jobId);
  return { periods, runs, planned, histories };
}

/**
 * Consecutive periods whose slots are not one `every` apart (closer, or further without cause), as `prev -> next`.
 * BullMQ plans a period at the previous one's slot plus `every`, unless that moment had already passed when the
 * previous period's job was taken (a busy machine, a worker late by more than a period): then it plans the next slot
 * of the same grid still ahead, and the ones in between are skipped by design rather than run late in a burst. The
 * next period's `added` entry is written after that decision, so an entry stamped no later than the slot it passed
 * over shows a skip the scheduler had no reason for.
 */
export function offSchedule(periods: Period[], every: number): string[] {
  const off: string[] = [];
  for (let k = 1; k < periods.length; k++) {
    const prev = periods[k - 1]!;
    const next = periods[k]!;
    const due = prev.slot + every;
    if (next.slot === due) continue;
    if (next.slot > due && next.addedAt !== undefined && next.addedAt > due && (next.slot - prev.slot) % every === 0)
      continue;
    off.push(`${prev.jobId} -> ${next.jobId} (planned at ${next.addedAt ?? 'unknown'})`);
  }
  return off;
}
