import { createDb, type Knex } from '@wms/kit/db';
import { createLogger } from '@wms/kit/logger';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MessageStore } from '../../services/messaging/src/store/message.store.ts';
import { type Account, signUp } from './support/accounts.ts';
import { sql } from './support/db.ts';
import { createChannel, type MessageBody, type Page, postText, walk } from './support/messages.ts';
import { addMember, createWorkspace, inWorkspace } from './support/workspaces.ts';

let accounts: Account[];
let ws: string;

beforeAll(async () => {
  accounts = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(`conc-${i}`)));
  ws = (await createWorkspace(accounts[0]!)).id;
  await Promise.all(accounts.slice(1).map((a) => addMember(accounts[0]!, ws, a)));
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** A plan node and every node below it. */
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

type Bindings = readonly Knex.Value[];

/** The plan Postgres makes for a statement with these values. */
async function planOf(db: Knex, text: string, bindings: Bindings): Promise<PlanNode> {
  const { rows } = await db.raw(`EXPLAIN (FORMAT JSON) ${text}`, bindings);
  return (rows as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }])[0]['QUERY PLAN'][0].Plan;
}

/** The generic plan of a statement prepared as `prepared` (kit) prepares it: made for no value of its parameters. */
async function genericPlanOf(db: Knex, text: string, bindings: Bindings): Promise<PlanNode> {
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL plan_cache_mode = force_generic_plan');
    let n = 0;
    await trx.raw(`PREPARE generic_plan_of AS ${text.replace(/\?/g, () => `$${++n}`)}`);
    // EXECUTE takes its values as literals, not as parameters.
    const execute = trx.raw(`EXECUTE generic_plan_of(${bindings.map(() => '?').join(', ')})`, bindings).toQuery();
    const plan = await planOf(trx, execute, []);
    await trx.raw('DEALLOCATE generic_plan_of');
    return plan;
  });
}

const path = (conversationId: string, rest = '') => `/conversations/${conversationId}/messages${rest}`;

describe('concurrency', () => {
  it('counts every one of many parallel replies to one root exactly', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const root = await postText(accounts[0]!, ws, conv, 'root');
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postText(accounts[i % accounts.length]!, ws, conv, `reply ${i}`, { parent_message_id: root.id }),
      ),
    );
    const got = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv, `/${root.id}`))).body as MessageBody;
    expect(got.reply_count).toBe(60);
    expect([...got.reply_actor_ids].sort()).toEqual([...new Set(replies.map((r) => r.author_actor_id))].sort());
    expect(got.reply_actor_ids).toHaveLength(accounts.length);
    const newest = replies
      .map((r) => r.created_at)
      .sort()
      .at(-1);
    expect(got.last_reply_at).toBe(newest);
  });

  it('stores one message for parallel posts with the same client_message_id, and answers all of them with it', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const key = 'double-click';
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        inWorkspace(accounts[1]!, ws, 'POST', path(conv), { body: { body_text: 'once only', client_message_id: key } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(new Set(answers.map((a) => (a.body as MessageBody).id)).size).toBe(1);
    const rows = await sql('SELECT id FROM messaging.messages WHERE conversation_id = $1', [conv]);
    expect(rows).toHaveLength(1);
  });

  it('keeps one reaction and one version step for parallel identical reactions', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const m = await postText(accounts[0]!, ws, conv, 'react to me');
    const emoji = encodeURIComponent('🎉');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => inWorkspace(accounts[2]!, ws, 'PUT', path(conv, `/${m.id}/reactions/${emoji}`))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const got = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv, `/${m.id}`))).body as MessageBody;
    expect(got.reactions).toEqual([{ emoji: '🎉', actor_ids: [expect.any(String)] }]);
    for (const a of answers)
      expect(a.body).toEqual({ message_id: m.id, reactions: got.reactions, reactions_version: 1 });
    expect(got.reactions_version).toBe(1);
  });

  it('loses no reaction when many actors react in parallel, each a step of the version', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const m = await postText(accounts[0]!, ws, conv, 'react to me');
    const emojis = ['👍', '😀', '🎉'];
    await Promise.all(
      accounts.flatMap((a) =>
        emojis.map((e) => inWorkspace(a, ws, 'PUT', path(conv, `/${m.id}/reactions/${encodeURIComponent(e)}`))),
      ),
    );
    const got = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv, `/${m.id}`))).body as MessageBody;
    expect(got.reactions_version).toBe(accounts.length * emojis.length);
    expect(got.reactions.map((r) => r.emoji).sort()).toEqual([...emojis].sort());
    for (const r of got.reactions) expect(r.actor_ids).toHaveLength(accounts.length);
  });

  it('keeps one bookmark for parallel identical saves', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const m = await postText(accounts[0]!, ws, conv, 'save me');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => inWorkspace(accounts[3]!, ws, 'PUT', path(conv, `/${m.id}/saved`))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => (a.body as { saved_at: string }).saved_at)).size).toBe(1);
    expect(await sql('SELECT 1 FROM messaging.saved_messages WHERE message_id = $1', [m.id])).toHaveLength(1);
  });

  it('creates one channel for parallel creates of one name', async () => {
    const name = `race-${Math.random().toString(36).slice(2, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => inWorkspace(accounts[0]!, ws, 'POST', '/channels', { body: { name } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
  });
});

describe('paging', () => {
  it('walks every page with small limits while new messages arrive, without duplicates or gaps', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const before: MessageBody[] = [];
    for (let i = 0; i < 5; i++)
      before.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, j) => postText(accounts[j % 3]!, ws, conv, `old ${i}-${j}`)),
        )),
      );
    const arriving: Promise<MessageBody>[] = [];
    for (const limit of [1, 3, 7, 50]) {
      const pages = await walk<MessageBody>((cursor) => {
        arriving.push(postText(accounts[4]!, ws, conv, `new during walk (limit ${limit})`));
        return inWorkspace(accounts[5]!, ws, 'GET', path(conv, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`));
      });
      const seen = pages.flat();
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
      expect(new Set(seen.map((m) => m.id)).size).toBe(seen.length);
      // Newest first, strictly.
      expect(seen.map((m) => m.id)).toEqual([...seen.map((m) => m.id)].sort().reverse());
      // Everything that existed before the walk is there.
      const ids = new Set(seen.map((m) => m.id));
      for (const m of before) expect(ids.has(m.id)).toBe(true);
    }
    await Promise.all(arriving);
  });

  it('answers next_cursor null exactly on the last page, also when the count is a multiple of the limit', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    for (let i = 0; i < 4; i++) await postText(accounts[0]!, ws, conv, `m${i}`);
    const first = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv, '?limit=2'))).body as Page<MessageBody>;
    expect(first.items.map((m) => m.body_text)).toEqual(['m3', 'm2']);
    expect(first.next_cursor).toBe(first.items[1]!.id);
    const second = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv, `?limit=2&cursor=${first.next_cursor}`)))
      .body as Page<MessageBody>;
    expect(second.items.map((m) => m.body_text)).toEqual(['m1', 'm0']);
    expect(second.next_cursor).toBeNull();
    const all = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv))).body as Page<MessageBody>;
    expect(all.items).toHaveLength(4);
    expect(all.next_cursor).toBeNull();
  });

  it('pages 50 at a time when no limit is given', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    await Promise.all(
      Array.from({ length: 51 }, (_, i) => postText(accounts[i % accounts.length]!, ws, conv, `m${i}`)),
    );
    const first = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv))).body as Page<MessageBody>;
    expect(first.items).toHaveLength(50);
    expect(first.next_cursor).toBe(first.items[49]!.id);
    const rest = (await inWorkspace(accounts[0]!, ws, 'GET', path(conv, `?cursor=${first.next_cursor}`)))
      .body as Page<MessageBody>;
    expect(rest.items).toHaveLength(1);
    expect(rest.next_cursor).toBeNull();
  });

  it('validates limit and cursor', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'limit=-1',
      'cursor=nope',
      'limit=1&limit=2',
    ]) {
      const res = await inWorkspace(accounts[0]!, ws, 'GET', path(conv, `?${query}`));
      expect(res.status, query).toBe(400);
      expect((res.body as { error: { code: string } }).error.code).toBe('invalid_input');
    }
    expect((await inWorkspace(accounts[0]!, ws, 'GET', path(conv, '?limit=100'))).status).toBe(200);
  });

  it('reads the newest page and a next page of a large conversation through its index, from the cursor on, without sorting it', async () => {
    const conv = await createChannel(accounts[0]!, ws);
    const seed = await postText(accounts[0]!, ws, conv, 'seed');
    // As large a conversation beside it: the workspace's range of the primary key is not the conversation's.
    const beside = await postText(accounts[0]!, ws, await createChannel(accounts[0]!, ws), 'beside');
    // Copies of a posted message: 20,000 posts through the API would take minutes.
    await sql(
      `INSERT INTO messaging.messages (id, workspace_id, conversation_id, author_actor_id, body_text)
       SELECT gen_random_uuid(), workspace_id, conversation_id, author_actor_id, 'copy ' || i FROM messaging.messages, generate_series(1, 20000) i
       WHERE id = ANY ($1::uuid[])`,
      [[seed.id, beside.id]],
    );
    await sql('ANALYZE messaging.messages');
    const [{ id: cursor }] = (await sql(
      'SELECT id FROM messaging.messages WHERE conversation_id = $1 ORDER BY id DESC OFFSET 10000 LIMIT 1',
      [conv],
    )) as [{ id: string }];
    const db = createDb({ url: inject('databaseUrl'), schema: 'messaging', log: createLogger('e2e', 'warn') });
    try {
      const store = new MessageStore(db);
      for (const [before, indexCond] of [
        [null, `conversation_id = '${conv}'::uuid`],
        [cursor, `id < '${cursor}'::uuid`],
      ] as const) {
        const { sql: text, bindings } = store
          .pageStatement({
            workspaceId: ws,
            conversationId: conv,
            parentMessageId: null,
            before,
            limit: 51,
            actorId: seed.author_actor_id,
          })
          .toSQL();
        // The plan made for these values, and the generic plan that the prepared statement keeps after five runs.
        for (const [plan, cond] of [
          [await planOf(db, text, bindings), indexCond],
          [await genericPlanOf(db, text, bindings), before === null ? 'conversation_id = $' : 'id < $'],
        ] as const) {
          // Below the page's LIMIT; above it, the statement sorts at most a page.
          const page = planNodes(planNodes(plan).find((n) => n['Node Type'] === 'Limit')!);
          const scans = page
            .filter((n) => n['Relation Name'] === 'messages')
            .map((n) => [n['Node Type'], n['Index Name'], n['Scan Direction'], n['Index Cond']]);
          // The conversation's index; or, when the conversation holds much of its workspace (here half of it), the
          // workspace's range of the primary key, which the planner may find as cheap, the conversation checked in
          // each row: either walks backward from the cursor and reads about a page.
          expect(scans, `before ${before}`).toEqual([
            [
              'Index Scan',
              expect.stringMatching(/^messages_(top_idx|pkey)$/),
              'Backward',
              expect.stringContaining(scans[0]?.[1] === 'messages_pkey' ? 'workspace_id = ' : cond),
            ],
          ]);
          if (scans[0]?.[1] === 'messages_pkey' && before !== null) expect(scans[0][3]).toContain(cond);
          expect(page.filter((n) => n['Node Type'].includes('Sort'))).toEqual([]);
        }
      }
    } finally {
      await db.destroy();
    }
  });
});
