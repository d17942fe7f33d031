import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { loadProto } from '@wms/protos';
import { type CallContext, contextToHeaders } from './context.ts';
import { fromGrpcError } from './grpc-errors.ts';

/** Promise-style client methods for a generated service definition: `(request, ctx) => Promise<response>`. */
export type AsyncClient<D> = {
  [K in keyof D as string extends K ? never : K]: D[K] extends MethodDefinition<infer Req, any, any, infer ResOut> ? (req: Req, ctx: CallContext) => Promise<ResOut> : never;
};

type ClientConstructor = grpc.ServiceClientConstructor | (typeof grpc.Client & { service: grpc.ServiceDefinition });

export interface ClientOptions {
  /** Deadline of every call; DESIGN.md asks for a few seconds at most. */
  deadlineMs?: number;
}

/**
 * A pooled (one HTTP/2 channel) client whose methods return promises, send the caller's context as metadata and
 * bound every call with a deadline. Failures come back as DomainErrors (the callee's code, or `unavailable`).
 */
export function createAsyncClient<D extends grpc.ServiceDefinition>(
  Ctor: ClientConstructor & { service: D },
  address: string,
  { deadlineMs = 5000 }: ClientOptions = {},
): AsyncClient<D> & { close(): void; raw: grpc.Client } {
  const raw = new Ctor(address, grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
  }) as grpc.Client & Record<string, (...args: unknown[]) => grpc.ClientUnaryCall>;
  const out: Record<string, unknown> = { close: () => raw.close(), raw };
  for (const name of Object.keys(Ctor.service)) {
    out[name] = (req: unknown, ctx: CallContext) =>
      new Promise((resolve, reject) => {
        const metadata = new grpc.Metadata();
        for (const [key, value] of Object.entries(contextToHeaders(ctx))) metadata.set(key, value);
        raw[name]!(req, metadata, { deadline: Date.now() + deadlineMs }, (err: grpc.ServiceError | null, res: unknown) =>
          err ? reject(fromGrpcError(err)) : resolve(res),
        );
      });
  }
  return out as AsyncClient<D> & { close(): void; raw: grpc.Client };
}

/** A grpc.health.v1 client for a peer (grpc-js shares the underlying connection with other clients of that address). */
export function createHealthClient(address: string): { check(timeoutMs?: number): Promise<boolean>; close(): void } {
  const { Health } = loadProto('health').grpc.health.v1;
  const client = new Health(address, grpc.credentials.createInsecure());
  return {
    check: (timeoutMs = 1000) =>
      new Promise((resolve) => {
        client.Check({ service: '' }, { deadline: Date.now() + timeoutMs }, (err, res) => resolve(!err && res?.status === 'SERVING'));
      }),
    close: () => client.close(),
  };
}
