import net from 'node:net';
import { vi } from 'vitest';
import { TEST_DATABASE_URL } from './helpers.js';

// What the process writes to the test PostgreSQL's sockets: on the virtual machines the
// benchmarks run on, each write costs the event loop about 150 µs whatever it carries
// (docs/performance.md "Sign-in"), so tests count them.

/** The writes to the sockets whose far end is the test database's port while `run` runs. */
export async function databaseWritesDuring(run: () => Promise<unknown>): Promise<number> {
  const port = Number(new URL(TEST_DATABASE_URL ?? 'postgres://localhost:5432').port || 5432);
  const write = vi.spyOn(net.Socket.prototype, '_write');
  const writev = vi.spyOn(net.Socket.prototype, '_writev');
  try {
    await run();
    return [...write.mock.contexts, ...writev.mock.contexts].filter(
      (socket) => socket instanceof net.Socket && socket.remotePort === port,
    ).length;
  } finally {
    write.mockRestore();
    writev.mockRestore();
  }
}
