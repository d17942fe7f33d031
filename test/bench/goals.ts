import type { Measurement } from './measure.ts';
import type { OpenLoopMeasurement } from './open-loop.ts';
import { render } from './report.ts';
import type { SignInMeasurement } from './signin.ts';

/** One goal of issue 15's table: what it is about, the figure this run measured, and whether it reaches the goal. */
export interface Goal {
  path: string;
  measured: string;
  goal: string;
  met: boolean;
}

const percent = (value: number) => `${Number((value * 100).toFixed(1))} %`;

/** A route's throughput as a share of its baseline's, measured in the same run. */
export function ratioGoal(path: string, route: Measurement, baseline: Measurement, atLeast: number): Goal {
  const ratio = route.rps / baseline.rps;
  return {
    path: `${path} / ${baseline.name}`,
    measured: percent(ratio),
    goal: `≥ ${percent(atLeast)}`,
    met: ratio >= atLeast,
  };
}

/** The p99 of an open-loop run, from each request's scheduled send. */
export function openLoopGoal(m: OpenLoopMeasurement, atMostMs: number): Goal {
  return {
    path: `${m.name}, open loop at ${m.rate}/s: p99`,
    measured: `${m.p99Ms.toFixed(1)} ms`,
    goal: `≤ ${atMostMs} ms`,
    met: m.p99Ms <= atMostMs,
  };
}

/** A cursor page's p99 in a large channel against a small one. */
export function scaleGoal(path: string, small: Measurement, large: Measurement, atMost: number): Goal {
  const ratio = large.p99Ms / small.p99Ms;
  return {
    path,
    measured: `${ratio.toFixed(2)}× (${large.p99Ms.toFixed(1)} / ${small.p99Ms.toFixed(1)} ms)`,
    goal: `≤ ${atMost}×`,
    met: ratio <= atMost,
  };
}

/** A closed-loop run's p99. */
export function p99Goal(m: Measurement, atMostMs: number): Goal {
  return {
    path: `${m.name}: p99`,
    measured: `${m.p99Ms.toFixed(1)} ms`,
    goal: `≤ ${atMostMs} ms`,
    met: m.p99Ms <= atMostMs,
  };
}

export function signInGoal(m: SignInMeasurement, atLeastRps: number): Goal {
  return {
    path: 'sign-in (POST /auth/login, argon2id)',
    measured: `${m.rps.toFixed(1)}/s, ${m.rateLimited} × 429`,
    goal: `≥ ${atLeastRps}/s, no 429`,
    met: m.rps >= atLeastRps && m.rateLimited === 0,
  };
}

/** Failed requests (non-2xx, connection errors, timeouts) over every measured run; warm-ups are not counted. */
export function errorsGoal(runs: ReadonlyArray<{ ok: number; failed: number }>): Goal {
  const failed = runs.reduce((sum, r) => sum + r.failed, 0);
  const requests = runs.reduce((sum, r) => sum + r.ok + r.failed, 0);
  return {
    path: `errors in every run (${runs.length} runs)`,
    measured: `${failed} of ${requests}`,
    goal: '0',
    met: failed === 0,
  };
}

export function goalLines(goals: readonly Goal[]): string[] {
  const met = goals.filter((g) => g.met).length;
  return [
    `goals (issue 15): ${met} of ${goals.length} met in this run`,
    '',
    render(
      ['path', 'measured', 'goal', 'met'],
      goals.map((g) => [g.path, g.measured, g.goal, g.met ? 'yes' : 'no']),
      ['path', 'measured', 'goal', 'met'],
    ),
  ];
}
