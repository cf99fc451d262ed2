import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const serverEntry = path.join(import.meta.dirname, '..', 'server.ts');

// Starting the server compiles it with tsx: on a loaded machine that takes many seconds. The tests
// that start one are about what it does once running, not start-up speed: they wait as long as
// they must.
export const STARTUP_MS = 90_000;

export interface ServerProcess {
  child: ChildProcess;
  /** The process's exit code, once it exits. */
  exited: Promise<number | null>;
  base: string;
}

/** A port free now: the system picks it, then lets it go for the child to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `server.ts` as `npm start` would (on 127.0.0.1, a free port); resolves once ready. A port
 * taken between its choice and the child's listen (another process got it) ends the child at once:
 * it starts again on another port, up to three times.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt += 1) {
    const started = await startOnce(env, await freePort());
    if (started !== 'exited' || attempt === 3) {
      if (started === 'exited') throw new Error('the server exited before it was ready');
      return started;
    }
  }
}

async function startOnce(
  env: Record<string, string>,
  port: number,
): Promise<ServerProcess | 'exited'> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let gone = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      gone = true;
      resolve(code);
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    if (gone) return 'exited';
    try {
      if ((await fetch(`${base}/api/ready`)).ok) return { child, exited, base };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not become ready');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export { serverEntry };
