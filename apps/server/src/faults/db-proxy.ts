import net from 'node:net';
import { portOf } from '../test/helpers.js';

/**
 * A TCP proxy in front of the test PostgreSQL that a scenario can cut: while it is down, every
 * open connection is broken and every new one is dropped at once, as when the database restarts or
 * the network between the node and the database fails. It also counts the round trips made
 * through it.
 */
export class DatabaseProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private down = false;
  private clientTurns = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      // A round trip begins each time the client speaks after the database has.
      let answered = true;
      client.on('data', () => {
        if (answered) this.clientTurns++;
        answered = false;
      });
      upstream.on('data', () => {
        answered = true;
      });
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.pipe(b);
        a.on('error', () => b.destroy());
        a.on('close', () => b.destroy());
        this.sockets.add(a);
        a.on('close', () => this.sockets.delete(a));
      }
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  /** The test database's URL, through the proxy. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(portOf(this.server));
    return url.href;
  }

  /**
   * The round trips the clients have begun, summed over their connections: each time a client
   * sent something after the database had answered it (statements written together are one).
   */
  roundTrips(): number {
    return this.clientTurns;
  }

  /** Breaks every connection and refuses new ones until `restore`. */
  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.down = false;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
