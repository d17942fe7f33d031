import net from 'node:net';

/**
 * The local stand-in for a Kubernetes Service in front of several gateways: a TCP proxy on the cluster's gateway port
 * that hands each new connection to the next gateway in turn (HTTP keep-alive connections and websockets stay with
 * the gateway they reached). A gateway that refuses the connection (it is restarting) is skipped for the next one.
 */
export interface Balancer {
  close(): Promise<void>;
}

export async function startBalancer(port: number, targets: number[]): Promise<Balancer> {
  const sockets = new Set<net.Socket>();
  let next = 0;
  /** Connects `client` to the next target (or the one after, when it refuses), telling `attach` each upstream it tries. */
  const connect = (client: net.Socket, tries: number, attach: (upstream: net.Socket) => void) => {
    const target = targets[next++ % targets.length]!;
    const upstream = net.connect(target, '127.0.0.1');
    let connected = false;
    sockets.add(upstream);
    attach(upstream);
    upstream.once('connect', () => {
      connected = true;
      // The client was paused on connect: nothing it sent is lost, and piping resumes it.
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', () => {
      if (!connected && !client.destroyed && tries + 1 < targets.length) connect(client, tries + 1, attach);
      else client.destroy();
    });
    upstream.once('close', () => {
      sockets.delete(upstream);
      if (connected) client.destroy();
    });
  };
  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    let upstream: net.Socket | undefined;
    sockets.add(client);
    client.once('close', () => {
      sockets.delete(client);
      upstream?.destroy();
    });
    client.on('error', () => undefined);
    connect(client, 0, (u) => (upstream = u));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
