import net from 'node:net';

/**
 * The local stand-in for a Kubernetes Service in front of several gateways: a TCP proxy on the cluster's gateway port
 * that hands each new connection to the next gateway in turn (HTTP keep-alive connections and websockets stay with
 * the gateway they reached). A gateway that refuses the connection (it is restarting) is skipped for the next one.
 */
export interface Balancer {
  /** Connections handed to each target so far, by port. */
  readonly handed: ReadonlyMap<number, number>;
  close(): Promise<void>;
}

export async function startBalancer(port: number, targets: number[]): Promise<Balancer> {
  const handed = new Map(targets.map((t) => [t, 0]));
  const sockets = new Set<net.Socket>();
  let next = 0;
  const connect = (client: net.Socket, tries: number) => {
    const target = targets[next++ % targets.length]!;
    const upstream = net.connect(target, '127.0.0.1');
    let connected = false;
    sockets.add(upstream);
    upstream.once('connect', () => {
      connected = true;
      handed.set(target, handed.get(target)! + 1);
      // The client was paused on connect: nothing it sent is lost, and piping resumes it.
      client.pipe(upstream);
      upstream.pipe(client);
      client.once('close', () => upstream.destroy());
    });
    upstream.on('error', () => {
      if (!connected && tries + 1 < targets.length) connect(client, tries + 1);
      else client.destroy();
    });
    upstream.once('close', () => {
      sockets.delete(upstream);
      if (connected) client.destroy();
    });
  };
  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    connect(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    handed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
