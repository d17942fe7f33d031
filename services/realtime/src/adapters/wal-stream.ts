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
  /** Tells Postgres that everything up to `lsn` is safely stored: the slot moves on and WAL before it may go. */
  acknowledge(lsn: bigint): void;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/**
 * Connects with `replication=database` and starts streaming the slot from where it was last acknowledged. `done`
 * rejects at once when the slot cannot be had (code 55006 while another reader holds it, 42704 when it does not exist).
 */
export async function startWalStream(
  o: { url: string; slot: string; publication: string },
  handlers: WalStreamHandlers,
): Promise<WalStream> {
  const client = new pg.Client({ connectionString: o.url, replication: 'database' } as pg.ClientConfig);
  client.on('error', () => {}); // the query below rejects with it
  await client.connect();
  const connection = (client as unknown as { connection: ReplicationConnection }).connection;
  const decoder = new PgoutputDecoder(handlers);
  connection.on('copyData', ({ chunk }) => decoder.copyData(chunk));
  let closing = false;
  const started = new Promise<void>((resolve) => connection.once('replicationStart', resolve));
  const done = client
    .query(
      `START_REPLICATION SLOT ${client.escapeIdentifier(o.slot)} LOGICAL 0/0 ` +
        `(proto_version '1', publication_names ${client.escapeLiteral(o.publication)}, messages 'true')`,
    )
    .then(
      () => undefined,
      (err: unknown) => {
        if (!closing) throw err;
      },
    );
  return {
    started: Promise.race([started, done]),
    done,
    acknowledge(lsn) {
      connection.sendCopyFromChunk(standbyStatus(lsn));
    },
    pause: () => connection.stream.pause(),
    resume: () => connection.stream.resume(),
    async close() {
      closing = true;
      await client.end().catch(() => {});
      await done.catch(() => {});
    },
  };
}

const POSTGRES_EPOCH_MS = 946_684_800_000n;

/** A Standby Status Update: written, flushed and applied all at `lsn`. */
function standbyStatus(lsn: bigint): Buffer {
  const b = Buffer.alloc(34);
  b.write('r', 0);
  b.writeBigUInt64BE(lsn, 1);
  b.writeBigUInt64BE(lsn, 9);
  b.writeBigUInt64BE(lsn, 17);
  b.writeBigInt64BE((BigInt(Date.now()) - POSTGRES_EPOCH_MS) * 1000n, 25);
  b.writeUInt8(0, 33);
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
