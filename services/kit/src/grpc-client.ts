import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { loadHealthProto, loadService, type ServiceDefinitions, type ServiceName, type topology } from '@wms/protos';
import { type CallContext, contextToHeaders } from './context.ts';
import { fromGrpcError } from './grpc-errors.ts';

/**
 * Promise-style client methods for a generated service definition: `(request, ctx) => Promise<response>`; the
 * client-streaming methods named in `S` take the requests as an async iterable, written with backpressure.
 */
export type AsyncClient<D, S extends string = never> = {
  [K in keyof D as string extends K ? never : K]: D[K] extends MethodDefinition<infer Req, never, unknown, infer ResOut>
    ? K extends S
      ? (requests: AsyncIterable<Req>, ctx: CallContext) => Promise<ResOut>
      : (req: Req, ctx: CallContext) => Promise<ResOut>
    : never;
};

/**
 * One set of channel options, so every client of an address (health checks included) shares its connections. An
 * address may name several replicas (`dns:///peer-headless.ns.svc:50053`, whose DNS answers every ready pod, or
 * `ipv4:127.0.0.1:50053,127.0.0.1:50063`): `round_robin` connects to each and spreads the calls over them (the
 * default, `pick_first`, would send them all to one). New replicas are found when DNS is resolved again, which the
 * servers' maximum connection age brings about (grpc-server.ts).
 */
const channelOptions: grpc.ChannelOptions = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.keepalive_time_ms': 30_000,
  // A page of 50 messages as its JSON (JsonBody) can reach some 24 MB: 40,000 characters of text and its children,
  // each character one JSON escapes as six bytes (tested).
  'grpc.max_receive_message_length': 64 * 1024 * 1024,
  // A restarted peer is used again within a second or so, not after grpc-js's default backoff of up to two minutes.
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 1000,
  // A replica that goes away makes grpc-js resolve DNS again, but by default not sooner than 30 s after the last time:
  // in a rolling update the pod that replaced it would stay unknown for that long (a single replica's callers would
  // have nothing to call).
  'grpc.dns_min_time_between_resolutions_ms': 1000,
};

/**
 * How often a refused call is sent again. A server refuses new streams on a connection it is closing (its maximum
 * connection age, a replica shutting down): RST_STREAM REFUSED_STREAM, which HTTP/2 and gRPC define as not processed,
 * so sending it again is safe for every call, writes included. grpc-js reports it as UNAVAILABLE "Stream refused by
 * server" without retrying it itself.
 */
const REFUSED_RETRIES = 3;
const wasRefused = (err: grpc.ServiceError) =>
  err.code === grpc.status.UNAVAILABLE && /stream refused/i.test(err.details ?? '');

/**
 * A call that found no connection to any of the address's replicas (grpc-js's picker: "No connection established")
 * was not sent either. A replica that restarted is connected again within the reconnect backoff (at most a second,
 * plus grpc-js's jitter of a fifth); a rolling update that stops the next replica meanwhile leaves a moment with none.
 * So such a call is sent again for that long, a try every PAUSE, before it is given up (503 at the gateway).
 */
const wasNotSent = (err: grpc.ServiceError) =>
  err.code === grpc.status.UNAVAILABLE && /no connection established/i.test(err.details ?? '');
const RECONNECT_WINDOW_MS = 1500;
const NOT_SENT_PAUSE_MS = 100;

type ClientConstructor = grpc.ServiceClientConstructor | (typeof grpc.Client & { service: grpc.ServiceDefinition });

export interface ClientOptions {
  /** Deadline of every call; DESIGN.md asks for a few seconds at most. */
  deadlineMs?: number;
  /** Deadline of client-streaming calls, which last as long as the client takes to send (an upload). */
  streamDeadlineMs?: number;
}

/**
 * A pooled (one HTTP/2 channel) client whose methods return promises, send the caller's context as metadata and
 * bound every call with a deadline. Failures come back as DomainErrors (the callee's code, or `unavailable`).
 */
export function createAsyncClient<D extends grpc.ServiceDefinition, S extends string = never>(
  Ctor: ClientConstructor & { service: D },
  address: string,
  { deadlineMs = 5000, streamDeadlineMs = 120_000 }: ClientOptions = {},
): AsyncClient<D, S> & { close(): void; raw: grpc.Client } {
  const raw = new Ctor(address, grpc.credentials.createInsecure(), channelOptions) as grpc.Client &
    Record<string, (...args: unknown[]) => grpc.ClientUnaryCall>;
  const out: Record<string, unknown> = { close: () => raw.close(), raw };
  const metadataOf = (ctx: CallContext) => {
    const metadata = new grpc.Metadata();
    for (const [key, value] of Object.entries(contextToHeaders(ctx))) metadata.set(key, value);
    return metadata;
  };
  for (const name of Object.keys(Ctor.service)) {
    out[name] = Ctor.service[name]!.requestStream
      ? (requests: AsyncIterable<unknown>, ctx: CallContext) =>
          clientStream(raw, name, requests, metadataOf(ctx), streamDeadlineMs)
      : (req: unknown, ctx: CallContext) => {
          const deadline = Date.now() + deadlineMs;
          const notSentUntil = Math.min(deadline, Date.now() + RECONNECT_WINDOW_MS);
          const attempt = (left: number): Promise<unknown> =>
            new Promise((resolve, reject) => {
              raw[name]!(req, metadataOf(ctx), { deadline }, (err: grpc.ServiceError | null, res: unknown) => {
                if (!err) return resolve(res);
                // A stream the server refused was never processed: sent again, on another connection or replica.
                if (left > 0 && wasRefused(err) && Date.now() < deadline) return resolve(attempt(left - 1));
                if (wasNotSent(err) && Date.now() + NOT_SENT_PAUSE_MS < notSentUntil)
                  return void setTimeout(() => resolve(attempt(left)), NOT_SENT_PAUSE_MS);
                reject(fromGrpcError(err));
              });
            });
          return attempt(REFUSED_RETRIES);
        };
  }
  return out as AsyncClient<D, S> & { close(): void; raw: grpc.Client };
}

/**
 * Writes the requests of a client-streaming call, waiting for 'drain' when grpc-js buffers, and resolves with the
 * answer. An early answer (the server refused) stops the writing; a failing source cancels the call.
 */
function clientStream(
  raw: grpc.Client,
  name: string,
  requests: AsyncIterable<unknown>,
  metadata: grpc.Metadata,
  deadlineMs: number,
): Promise<unknown> {
  let answered = false;
  let settle!: { resolve(res: unknown): void; reject(err: unknown): void };
  const answer = new Promise((resolve, reject) => (settle = { resolve, reject }));
  const call = (raw as unknown as Record<string, (...args: unknown[]) => grpc.ClientWritableStream<unknown>>)[name]!(
    metadata,
    { deadline: Date.now() + deadlineMs },
    (err: grpc.ServiceError | null, res: unknown) => {
      answered = true;
      if (err) settle.reject(fromGrpcError(err));
      else settle.resolve(res);
    },
  );
  void (async () => {
    try {
      for await (const request of requests) {
        if (answered) return;
        if (!call.write(request)) await Promise.race([once(call, 'drain'), answer.catch(() => undefined)]);
      }
      call.end();
    } catch (err) {
      answered = true;
      call.cancel();
      settle.reject(err);
    }
  })();
  return answer;
}

/** A grpc.health.v1 client for a peer (grpc-js shares the underlying connection with other clients of that address). */
export function createHealthClient(address: string): {
  /** True when the peer answers SERVING. */
  check(timeoutMs?: number): Promise<boolean>;
  /** The peer's status (`SERVING`, `NOT_SERVING`, ...), or `unreachable` when it does not answer in time. */
  status(timeoutMs?: number): Promise<string>;
  close(): void;
} {
  const { Health } = loadHealthProto().grpc.health.v1;
  const client = new Health(address, grpc.credentials.createInsecure(), channelOptions);
  const status = (timeoutMs = 1000) =>
    new Promise<string>((resolve) => {
      client.Check({ service: '' }, { deadline: Date.now() + timeoutMs }, (err, res) =>
        resolve(err ? 'unreachable' : String(res?.status ?? 'UNKNOWN')),
      );
    });
  return {
    check: async (timeoutMs = 1000) => (await status(timeoutMs)) === 'SERVING',
    status,
    close: () => client.close(),
  };
}

/** A client of one service of the topology, typed by its row (client-streaming methods included). */
export type PeerClient<N extends ServiceName> = AsyncClient<
  ServiceDefinitions[N],
  (typeof topology)[N]['clientStreams'][number]
> & { close(): void; raw: grpc.Client };

/** A pooled client of the topology's service `name` at `address` (its `<NAME>_GRPC_URL`). */
export function connectPeer<N extends ServiceName>(name: N, address: string, options?: ClientOptions): PeerClient<N> {
  return createAsyncClient(loadService(name), address, options) as unknown as PeerClient<N>;
}
