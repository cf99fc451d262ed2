import net from 'node:net';
import { portOf } from '../test/helpers.js';

/**
 * A TCP proxy in front of the test PostgreSQL that a scenario can cut: while it is down, every
 * open connection is broken and every new one is dropped at once, as when the database restarts or
 * the network between the node and the database fails.
 */
export class DatabaseProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private down = false;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
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
