import http from 'node:http';
import type { Express } from 'express';
import { answerUnparsableRequests } from './middleware/errors.ts';

/**
 * The gateway's HTTP server for `app`: it makes each request and response with Express's prototypes (`app.request`,
 * `app.response`), and answers the requests Node's parser refuses with the contract's error body.
 *
 * Express gives a request its methods by changing the prototypes of Node's request and response, every request
 * (`Object.setPrototypeOf` in `app.handle`); made with those prototypes, the change is a no-op. Changed, they kept most
 * of a request's short-lived objects alive through V8's young-generation collections: 8 KB of each request moved to the
 * old generation, and a pause of 10–50 ms about every second at 100 requests a second (docs/benchmark.md).
 */
export function gatewayServer(app: Express): http.Server {
  // Node's own constructors are functions of the pre-class kind, which is what lets them initialise another prototype.
  function Request(this: http.IncomingMessage, ...args: unknown[]) {
    Reflect.apply(http.IncomingMessage, this, args);
  }
  function Response(this: http.ServerResponse, ...args: unknown[]) {
    Reflect.apply(http.ServerResponse, this, args);
  }
  Request.prototype = app.request;
  Response.prototype = app.response;
  const server = http.createServer(
    {
      IncomingMessage: Request as unknown as typeof http.IncomingMessage,
      ServerResponse: Response as unknown as typeof http.ServerResponse,
    },
    app,
  );
  answerUnparsableRequests(server);
  return server;
}
