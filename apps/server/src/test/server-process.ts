import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
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

/** Starts `server.ts` as `npm start` would (on 127.0.0.1, a random port); resolves once ready. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
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
