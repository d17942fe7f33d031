import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Failures, percentile } from './measure.ts';

/** A request still unanswered this long after its scheduled send counts as failed (a timeout). */
export const OPEN_LOOP_TIMEOUT_MS = 10_000;
// Enough for 500 req/s at 1 s each; past it requests wait for a socket, which their latency shows.
const MAX_SOCKETS = 512;

/** Requests sent open loop: one every 1/rate s for the duration, whether or not the earlier ones have answered. */
export interface OpenLoad {
  rate: number;
  seconds: number;
}

export interface OpenRequest {
  url: string;
  method?: string;
  headers: Record<string, string>;
  body?: string;
}

/** What one open-loop run did; latencies run from each request's scheduled send, so queueing anywhere counts. */
export interface OpenLoopMeasurement {
  name: string;
  rate: number;
  seconds: number;
  sent: number;
  ok: number;
  /** Non-2xx answers, connection errors and timeouts. */
  failed: number;
  failures: string;
  /** Successful answers per second, from the first scheduled send to the last answer. */
  achievedRps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Sends `request` on a fixed schedule over keep-alive connections and times each from the moment it was due to be
 * sent to the end of its answer: a request the load generator sends late (its event loop busy, every socket taken)
 * is charged for the delay, so a slow server cannot hide behind the requests it held back (no coordinated omission).
 */
export async function measureOpenLoop(
  name: string,
  load: OpenLoad,
  request: OpenRequest,
): Promise<OpenLoopMeasurement> {
  const url = new URL(request.url);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers = body === undefined ? request.headers : { ...request.headers, 'content-length': String(body.length) };
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const latenciesMs: number[] = [];
  const failures = new Failures();
  const total = Math.round(load.rate * load.seconds);
  const started = performance.now();
  let lastAnswer = started;

  const send = (scheduled: number) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const settle = (failure?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const at = performance.now();
        lastAnswer = Math.max(lastAnswer, at);
        if (failure === undefined) latenciesMs.push(at - scheduled);
        else failures.add(failure);
        resolve();
      };
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: request.method ?? 'GET',
          headers,
          agent,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          res.on('error', (err) => settle(err.message));
          res.on('end', () => settle(status >= 200 && status < 300 ? undefined : `HTTP ${status}`));
          res.resume();
        },
      );
      req.on('error', (err) => settle(err.message));
      const timer = setTimeout(
        () => {
          settle(`no answer within ${OPEN_LOOP_TIMEOUT_MS} ms`);
          req.destroy();
        },
        scheduled + OPEN_LOOP_TIMEOUT_MS - performance.now(),
      );
      req.end(body);
    });

  const requests: Array<Promise<void>> = [];
  const due = (i: number) => started + (i * 1000) / load.rate;
  for (let i = 0; i < total;) {
    // Timers fire late by a millisecond or more, so each wake-up sends every request that has come due meanwhile.
    for (const now = performance.now(); i < total && due(i) <= now; i++) requests.push(send(due(i)));
    if (i < total) await sleep(Math.max(0, due(i) - performance.now()));
  }
  await Promise.all(requests);
  agent.destroy();

  latenciesMs.sort((a, b) => a - b);
  return {
    name,
    ...load,
    sent: total,
    ok: latenciesMs.length,
    failed: failures.total,
    failures: failures.toString(),
    achievedRps: latenciesMs.length / ((lastAnswer - started) / 1000),
    p50Ms: percentile(latenciesMs, 50),
    p99Ms: percentile(latenciesMs, 99),
    maxMs: latenciesMs.at(-1) ?? Number.NaN,
  };
}
