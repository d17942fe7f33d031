import pg from 'pg';

// A reader of one logical replication slot with the `pgoutput` plugin, for its logical messages only: the events the
// data owners write into their transactions' WAL with `pg_logical_emit_message` (kit outbox.ts). Postgres's
// streaming replication protocol, as in https://www.postgresql.org/docs/15/protocol-replication.html and
// https://www.postgresql.org/docs/15/protocol-logicalrep-message-formats.html (protocol version 1, `messages`).

/** A transactional logical message, with the commit that made it visible. */
export interface WalMessage {
  /** The message's own WAL position: unique in the database, so it identifies the message when it comes again. */
  lsn: bigint;
  prefix: string;
  content: Buffer;
}

/** One committed transaction's messages, in the order it wrote them. */
export interface WalCommit {
  /** Where the commit record ends: acknowledging it means the transaction is not sent again. */
  endLsn: bigint;
  messages: WalMessage[];
}

export interface WalStreamHandlers {
  /** Each committed transaction that wrote a message, in commit order. */
  commit(c: WalCommit): void;
  /**
   * Postgres asks for the reader's position (it closes a stream that stays silent). `walEnd` is how far it has sent,
   * every message before it handed to `commit` already; undefined while a transaction's messages are still arriving.
   */
  keepalive(walEnd: bigint | undefined): void;
}

/** Reads a position as Postgres writes it (`16/B374D848`). */
export const parseLsn = (text: string): bigint => {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
};

/** Formats a position as Postgres does (`16/B374D848`). */
export const formatLsn = (lsn: bigint): string =>
  `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;

/** The `pg.Client` parts the replication protocol needs, which pg exposes but does not type. */
interface ReplicationConnection {
  on(event: 'copyData', listener: (msg: { chunk: Buffer }) => void): void;
  once(event: 'replicationStart', listener: () => void): void;
  sendCopyFromChunk(chunk: Buffer): void;
  stream: { pause(): void; resume(): void };
}

/** A stream: `started` resolves once Postgres streams the slot; `done` settles when it ends (rejects with why, unless `close` ended it). */
export interface WalStream {
  started: Promise<void>;
  done: Promise<void>;
  /**
   * Tells Postgres that everything up to `lsn` is safely stored (the slot moves on, and WAL before it may go); without
   * `lsn`, repeats the highest position told so far (a position never goes back).
   */
  acknowledge(lsn?: bigint): void;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/**
 * How often the reader reports its position, asking for an answer: a connection that brings nothing, not even that
 * answer, for WATCHDOG_MS is taken for dead (a half-open TCP connection would otherwise hold the follower for ever).
 */
const STATUS_EVERY_MS = 10_000;
const WATCHDOG_MS = 30_000;

/**
 * Connects with `replication=database` and starts streaming the slot from where it was last acknowledged. `done`
 * rejects at once when the slot cannot be had (code 55006 while another reader holds it, 42704 when it does not exist).
 */
export async function startWalStream(
  o: { url: string; slot: string; publication: string },
  handlers: WalStreamHandlers,
): Promise<WalStream> {
  const client = new pg.Client({
    connectionString: o.url,
    replication: 'database',
    // Named, so that a synchronous_standby_names of '*' cannot make this reader a standby its own writes wait for.
    application_name: 'wms-realtime-events',
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  } as pg.ClientConfig);
  client.on('error', () => {}); // the query below rejects with it
  await client.connect();
  const connection = (client as unknown as { connection: ReplicationConnection }).connection;
  const decoder = new PgoutputDecoder(handlers);
  let received = Date.now();
  let paused = false;
  let closing = false;
  let failure: Error | undefined;
  connection.on('copyData', ({ chunk }) => {
    received = Date.now();
    try {
      decoder.copyData(chunk);
    } catch (err) {
      // A message it cannot read (truncated): the stream ends with it, and nothing after it is acknowledged.
      failure = err instanceof Error ? err : new Error(String(err));
      void client.end().catch(() => {});
    }
  });
  // Where the slot stands: a position told later never goes below it (Postgres 15 would take one that does).
  let highest = await confirmedPosition(client, o.slot);
  const report = (replyRequested: boolean) => connection.sendCopyFromChunk(standbyStatus(highest, replyRequested));
  let streaming = false;
  // Silence counts only while reading: a stream paused under backpressure is silent by our choice.
  const watchdog = setInterval(() => {
    if (!paused && Date.now() - received > WATCHDOG_MS) void client.end().catch(() => {});
    else if (streaming) report(true);
  }, STATUS_EVERY_MS);
  const started = new Promise<void>((resolve) =>
    connection.once('replicationStart', () => {
      streaming = true;
      resolve();
    }),
  );
  const done = client
    .query(
      `START_REPLICATION SLOT ${client.escapeIdentifier(o.slot)} LOGICAL 0/0 ` +
        `(proto_version '1', publication_names ${client.escapeLiteral(o.publication)}, messages 'true')`,
    )
    .catch((err: unknown) => {
      if (failure === undefined && !closing) throw err;
    })
    .then(() => {
      if (failure !== undefined) throw failure;
    })
    .finally(() => clearInterval(watchdog));
  return {
    started: Promise.race([started, done]),
    done,
    acknowledge(lsn) {
      if (lsn !== undefined && lsn > highest) highest = lsn;
      report(false);
    },
    pause() {
      paused = true;
      connection.stream.pause();
    },
    resume() {
      paused = false;
      received = Date.now();
      connection.stream.resume();
    },
    async close() {
      closing = true;
      await client.end().catch(() => {});
      await done.catch(() => {});
    },
  };
}

/** The slot's confirmed position (0 when it has none); the client is ended when the query fails. */
async function confirmedPosition(client: pg.Client, slot: string): Promise<bigint> {
  const { rows } = await client
    .query<{ confirmed: string | null }>(
      `SELECT confirmed_flush_lsn::text AS confirmed FROM pg_replication_slots WHERE slot_name = ${client.escapeLiteral(slot)}`,
    )
    .catch(async (err: unknown) => {
      await client.end().catch(() => {});
      throw err;
    });
  return rows[0]?.confirmed ? parseLsn(rows[0].confirmed) : 0n;
}

const POSTGRES_EPOCH_MS = 946_684_800_000n;

/** A Standby Status Update: written, flushed and applied all at `lsn` (0: nothing new to say of them). */
function standbyStatus(lsn: bigint, replyRequested: boolean): Buffer {
  const b = Buffer.alloc(34);
  b.write('r', 0);
  b.writeBigUInt64BE(lsn, 1);
  b.writeBigUInt64BE(lsn, 9);
  b.writeBigUInt64BE(lsn, 17);
  b.writeBigInt64BE((BigInt(Date.now()) - POSTGRES_EPOCH_MS) * 1000n, 25);
  b.writeUInt8(replyRequested ? 1 : 0, 33);
  return b;
}

/** Turns the stream's CopyData into transactions of messages; table changes (none are published) are skipped. */
class PgoutputDecoder {
  private open: WalMessage[] | undefined;

  constructor(private readonly handlers: WalStreamHandlers) {}

  copyData(chunk: Buffer): void {
    if (chunk[0] === 0x6b /* k: keepalive */) {
      if (chunk.readUInt8(17) === 1) this.handlers.keepalive(this.open ? undefined : chunk.readBigUInt64BE(1));
      return;
    }
    if (chunk[0] === 0x77 /* w: XLogData */) this.logical(chunk.subarray(25));
  }

  private logical(m: Buffer): void {
    switch (m[0]) {
      case 0x42 /* B: begin */:
        this.open = [];
        return;
      case 0x4d /* M: message */: {
        const transactional = m.readUInt8(1) === 1;
        const lsn = m.readBigUInt64BE(2);
        const end = m.indexOf(0, 10);
        const prefix = m.toString('utf8', 10, end);
        const length = m.readUInt32BE(end + 1);
        const content = Buffer.from(m.subarray(end + 5, end + 5 + length));
        if (transactional) this.open?.push({ lsn, prefix, content });
        return;
      }
      case 0x43 /* C: commit */: {
        const messages = this.open ?? [];
        this.open = undefined;
        if (messages.length > 0) this.handlers.commit({ endLsn: m.readBigUInt64BE(10), messages });
        return;
      }
    }
  }
}
