import net from 'node:net';
import { handConnection, type HandoffTarget } from '@wms/kit/handoff';

/**
 * The local stand-in for a Kubernetes Service in front of several gateways: the launcher listens on the cluster's
 * gateway port and hands each new connection to the next gateway in turn over its IPC channel (kit's handoff.ts), as
 * Node's cluster module does, so that it copies no bytes itself (HTTP keep-alive connections and websockets stay with
 * the gateway they reached). A gateway that has not started serving yet, is stopping or is gone is skipped.
 */
export interface Balancer {
  close(): Promise<void>;
}

/** `gateways` gives the gateways' processes of the moment (a restarted one is a new process). */
export async function startBalancer(
  port: number,
  gateways: () => readonly HandoffTarget[],
  log: (line: string) => void,
): Promise<Balancer> {
  let next = 0;
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.on('error', () => undefined);
    const serving = gateways().filter((gateway) => gateway.serving());
    if (serving.length === 0) socket.destroy();
    else handConnection(serving[next++ % serving.length]!, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // A connection it could not accept (out of file descriptors) is the client's failure, not the launcher's end.
  server.on('error', (err) => log(`balancer: ${err.message}`));
  // Stops listening at once; close's callback would wait for the gateways to end every connection handed to them.
  return { close: async () => void server.close() };
}
