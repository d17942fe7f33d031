import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Connections handed from one process to another over an IPC channel, as Node's cluster module does: the local
 * launcher accepts on the cluster's gateway port and hands each connection, the socket itself, to a gateway it runs,
 * so that no process copies the bytes of a request between the client and the gateway that answers it.
 */
const CONNECTION = 'wms:connection';
/** Sent by a process once it serves handed connections; one handed to it before would be lost. */
const SERVING = 'wms:serving';

/** A child process as the launcher hands it connections. */
export interface HandoffTarget {
  child: ChildProcess;
  /** It has said it serves handed connections, and its channel is still open (closed: it stops or is gone). */
  serving(): boolean;
}

/** Watches `child`, from its start (a message with no listener yet is lost), for when it serves handed connections. */
export function handoffTarget(child: ChildProcess): HandoffTarget {
  let serving = false;
  child.on('message', (message: unknown) => {
    if (message === SERVING) serving = true;
  });
  return { child, serving: () => serving && child.connected };
}

/**
 * Hands `socket` (accepted with `pauseOnConnect`, so nothing has been read from it) to `target`, which serves it.
 * Once sent, the socket is the target's: this process keeps no copy. Should the target's channel close meanwhile, the
 * connection is lost, as one in flight on a process that dies is.
 */
export function handConnection(target: HandoffTarget, socket: Socket): void {
  target.child.send(CONNECTION, socket, (err) => {
    if (err) socket.destroy();
  });
}

/**
 * Serves on `server` the connections handed to this process over its IPC channel, and tells the launcher so. Does
 * nothing in a process started without one (under Kubernetes, or run by hand). The returned function closes the
 * channel, which tells the launcher to hand this process nothing more: the first step of its shutdown.
 */
export function serveHandedConnections(server: Server): () => void {
  if (!process.send) return () => {};
  process.on('message', (message: unknown, socket?: Socket) => {
    if (message === CONNECTION && socket) server.emit('connection', socket);
  });
  // Should the launcher be gone already, there is no one to tell (and no error to raise).
  process.send(SERVING, undefined, undefined, () => undefined);
  return () => {
    if (process.connected) process.disconnect();
  };
}
