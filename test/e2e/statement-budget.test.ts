import { waitFor } from '@wms/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '@wms/local-cluster/cluster';
import { components } from '@wms/local-cluster/components';
import { type Account, signUp } from './support/accounts.ts';
import { api, type ApiResponse, useCluster } from './support/http.ts';
import { createChannel, type MessageBody, type Page, postText } from './support/messages.ts';
import { createWorkspace, inWorkspace } from './support/workspaces.ts';

// What each hot route costs the services, counted (issue 15): the statements each server's Postgres pool sends
// (`wms_db_statements_total` without the health probe; BEGIN and COMMIT count, each is a round trip) and the gRPC
// calls each server answers (`wms_grpc_server_handled_total`), for one request after a warm-up request of the same
// kind. Background effects on servers would count too (a request's events reach realtime's worker through the WAL,
// and no server). Workers are left out (their work is batched and on their own schedule). A cluster of its own, so
// no other file's requests land in the counters.
//
// The budget is the exact cost today. Costing more fails; costing less fails too, asking to lower the budget, so
// this table stays the true one (docs/benchmark.md copies it).

type Cost = { statements: number; grpc: number };
/** Per server; a server not named costs nothing. */
type Costs = Partial<Record<string, Cost>>;

const BUDGET: Record<string, Costs> = {
  'POST message': { messaging: { statements: 4, grpc: 1 } },
  'POST reply': { messaging: { statements: 4, grpc: 1 } },
  'GET newest 50': { messaging: { statements: 1, grpc: 1 } },
  'GET next page': { messaging: { statements: 1, grpc: 1 } },
  'PUT reaction': { messaging: { statements: 4, grpc: 1 } },
  'PUT saved': { messaging: { statements: 4, grpc: 1 } },
  'PUT read mark': { messaging: { statements: 4, grpc: 1 } },
  'GET /threads': { messaging: { statements: 1, grpc: 1 } },
  'GET /conversations': { messaging: { statements: 1, grpc: 1 } },
  'POST /auth/login': { identity: { statements: 2, grpc: 1 } },
  // An agent's token costs the services nothing once the gateway has it cached (and its use recorded this minute).
  'POST message, workspace token': { messaging: { statements: 4, grpc: 1 } },
  'POST message, conversation token': { messaging: { statements: 4, grpc: 1 } },
  // The walk through the newest messages fills the page; when it does not, the index step is a statement of its own.
  'GET /search/messages': { messaging: { statements: 1, grpc: 1 } },
  'GET /search/messages, past the walk': { messaging: { statements: 2, grpc: 1 } },
  // Nothing found within a conversation: one more statement tells it from one the caller may not read.
  'GET /search/messages, no hit in a conversation': { messaging: { statements: 3, grpc: 1 } },
};

const servers = components.filter((c) => c.kind === 'grpc').map((c) => c.name);

let cluster: Cluster;
let owner: Account;
let ws: string;
let conv: string;
/** The second page of `conv`: more than 50 top-level messages. */
let nextCursor: string;
/** An agent's tokens (contract §11): of the workspace, and of `conv`. */
let workspaceToken: string;
let conversationToken: string;

beforeAll(async () => {
  cluster = await startCluster({ mode: 'test', logs: 'files' });
  useCluster(cluster);
  owner = await signUp('budget');
  ws = (await createWorkspace(owner)).id;
  conv = await createChannel(owner, ws);
  for (let i = 0; i < 60; i++) await postText(owner, ws, conv, `filler ${i}`);
  const first = (await inWorkspace(owner, ws, 'GET', `/conversations/${conv}/messages?limit=50`))
    .body as Page<MessageBody>;
  expect(first.items).toHaveLength(50);
  nextCursor = first.next_cursor!;
  const agent = (
    (await inWorkspace(owner, ws, 'POST', '/workspace/actors', { body: { display_name: 'Budget bot' } })).body as {
      id: string;
    }
  ).id;
  const secret = async (path: string) =>
    (
      (await inWorkspace(owner, ws, 'POST', path, { body: { actor_id: agent, name: 'budget' } })).body as {
        token: string;
      }
    ).token;
  workspaceToken = await secret('/workspace/tokens');
  conversationToken = await secret(`/conversations/${conv}/tokens`);
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

/** The samples of `name` in a scrape, summed, leaving out those whose labels include `except`. */
function sum(text: string, name: string, except?: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{.*\})? (\S+)$/.exec(line);
    if (match?.[1] === name && !(except && match[2]?.includes(except))) total += Number(match[3]);
  }
  return total;
}

/** Each server's counters now. */
async function scrape(): Promise<Record<string, Cost>> {
  const costs: Record<string, Cost> = {};
  for (const name of servers) {
    const res = await fetch(cluster.metricsUrls[name]!, { signal: AbortSignal.timeout(10_000) });
    expect(res.status, name).toBe(200);
    const text = await res.text();
    costs[name] = {
      statements: sum(text, 'wms_db_statements_total', 'kind="health"'),
      grpc: sum(text, 'wms_grpc_server_handled_total'),
    };
  }
  return costs;
}

/** The counters once every request's background effects are over: two scrapes in a row agree. */
async function settled(): Promise<Record<string, Cost>> {
  let previous = '';
  return waitFor('the servers to be idle', async () => {
    const costs = await scrape();
    const seen = JSON.stringify(costs);
    const idle = seen === previous;
    previous = seen;
    return idle && costs;
  });
}

/** What `request` costs each server, run once after `warmUp`; every server appears, at zero when untouched. */
async function measure(
  warmUp: () => Promise<ApiResponse>,
  request: () => Promise<ApiResponse>,
): Promise<Record<string, Cost>> {
  const warm = await warmUp();
  expect(warm.status, JSON.stringify(warm.body)).toBeLessThan(300);
  const before = await settled();
  const res = await request();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const after = await settled();
  return Object.fromEntries(
    servers.map((s) => [
      s,
      { statements: after[s]!.statements - before[s]!.statements, grpc: after[s]!.grpc - before[s]!.grpc },
    ]),
  );
}

/** One line per number that is not its budget, saying which way it moved. */
function departures(route: string, measured: Record<string, Cost>): string[] {
  const lines: string[] = [];
  for (const server of servers) {
    for (const what of ['statements', 'grpc'] as const) {
      const budget = BUDGET[route]![server]?.[what] ?? 0;
      const cost = measured[server]![what];
      const unit = what === 'grpc' ? 'gRPC calls' : 'statements';
      if (cost > budget) lines.push(`${server}: ${cost} ${unit}, over its budget of ${budget}`);
      if (cost < budget)
        lines.push(
          `${server}: ${cost} ${unit}, under its budget of ${budget}: lower the budget in statement-budget.test.ts (and the README's table) to ${cost}`,
        );
    }
  }
  return lines;
}

const messages = (path = '') => `/conversations/${conv}/messages${path}`;
const post =
  (text: string, extra: Record<string, unknown> = {}) =>
  () =>
    inWorkspace(owner, ws, 'POST', messages(), { body: { body_text: text, ...extra } });
const get = (path: string) => () => inWorkspace(owner, ws, 'GET', path);
/** A request of the same kind on each of two fresh messages: the measured one really changes something. */
const onTwoMessages = async (tag: string, request: (id: string) => () => Promise<ApiResponse>) => {
  const [a, b] = [await postText(owner, ws, conv, `${tag} a`), await postText(owner, ws, conv, `${tag} b`)];
  return { warmUp: request(a.id), request: request(b.id) };
};

type Requests = { warmUp: () => Promise<ApiResponse>; request: () => Promise<ApiResponse> };
const routes: Record<keyof typeof BUDGET, () => Promise<Requests>> = {
  'POST message': async () => ({ warmUp: post('warm'), request: post('measured') }),
  'POST reply': async () => {
    const root = await postText(owner, ws, conv, 'root');
    return {
      warmUp: post('warm reply', { parent_message_id: root.id }),
      request: post('measured reply', { parent_message_id: root.id }),
    };
  },
  'POST message, workspace token': async () => {
    const as = (text: string) => () => api('POST', messages(), { token: workspaceToken, body: { body_text: text } });
    return { warmUp: as('warm'), request: as('measured') };
  },
  'POST message, conversation token': async () => {
    const as = (text: string) => () => api('POST', messages(), { token: conversationToken, body: { body_text: text } });
    return { warmUp: as('warm'), request: as('measured') };
  },
  'GET newest 50': async () => ({ warmUp: get(messages('?limit=50')), request: get(messages('?limit=50')) }),
  'GET next page': async () => ({
    warmUp: get(messages(`?limit=50&cursor=${nextCursor}`)),
    request: get(messages(`?limit=50&cursor=${nextCursor}`)),
  }),
  'PUT reaction': () =>
    onTwoMessages(
      'react',
      (id) => () => inWorkspace(owner, ws, 'PUT', messages(`/${id}/reactions/${encodeURIComponent('👍')}`)),
    ),
  'PUT saved': () => onTwoMessages('save', (id) => () => inWorkspace(owner, ws, 'PUT', messages(`/${id}/saved`))),
  'PUT read mark': () =>
    onTwoMessages(
      'read',
      (id) => () =>
        inWorkspace(owner, ws, 'PUT', `/conversations/${conv}/read-state`, { body: { last_read_message_id: id } }),
    ),
  'GET /threads': async () => ({ warmUp: get('/threads?limit=50'), request: get('/threads?limit=50') }),
  'GET /conversations': async () => ({
    warmUp: get('/conversations?limit=50'),
    request: get('/conversations?limit=50'),
  }),
  'GET /search/messages': async () => ({
    warmUp: get('/search/messages?q=filler&limit=20'),
    request: get('/search/messages?q=filler&limit=20'),
  }),
  // 60 hits: not a page of 100.
  'GET /search/messages, past the walk': async () => ({
    warmUp: get('/search/messages?q=filler&limit=100'),
    request: get('/search/messages?q=filler&limit=100'),
  }),
  'GET /search/messages, no hit in a conversation': async () => {
    const path = `/search/messages?q=nowhere&conversation_id=${conv}`;
    return { warmUp: get(path), request: get(path) };
  },
  'POST /auth/login': async () => {
    const login = () =>
      api('POST', '/auth/login', { body: { email: owner.email, password: owner.password }, ip: owner.ip });
    return { warmUp: login, request: login };
  },
};

describe('statement budget of the hot routes', () => {
  it('has a budget for every route it measures, naming only servers', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(BUDGET).sort());
    for (const costs of Object.values(BUDGET))
      for (const server of Object.keys(costs)) expect(servers).toContain(server);
  });

  it.each(Object.keys(BUDGET))('%s costs its budget', async (route) => {
    const { warmUp, request } = await routes[route]!();
    const measured = await measure(warmUp, request);
    expect(departures(route, measured), `${route} measured ${JSON.stringify(measured)}`).toEqual([]);
  });
});
