// Sign-ins as a load (autocannon), spread over a set of accounts, `connections` at a time.
// `signInLoad(options)` gives autocannon's options, for a load run in the caller's process;
// `startSignInLoader()` starts a process of its own that runs such loads when asked: a load whose
// effect on another client's latency is measured must not share that client's event loop (starting
// sixteen connections, then reading their answers, would delay the measuring client's own requests
// and be counted as the server's time).
import { fork } from 'node:child_process';
import autocannon from 'autocannon';

/**
 * autocannon's options for POST /api/login at `base`, the accounts `usernames` in turn with
 * `password`, `connections` at a time, with `headers` (the anti-forgery cookie and header, and a
 * proxy's `x-forwarded-for` to tell the client's address).
 */
export function signInLoad({ base, headers, usernames, password, connections }) {
  let next = 0;
  return {
    url: `${base}/api/login`,
    connections,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ username: usernames[next++ % usernames.length], password }),
        }),
      },
    ],
  };
}

/**
 * A process of its own that runs sign-in loads: `{ run(options, seconds), stop(), close() }`.
 * `run` starts a load of signInLoad(options) for `seconds` (autocannon's result when it ends);
 * `stop` ends the load in progress early; `close` ends the process. Ready when this resolves, so
 * that a load starts when asked, not after a process's start-up.
 */
export async function startSignInLoader() {
  const child = fork(import.meta.filename, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', () => reject(new Error('the sign-in loader exited before it was ready')));
  });
  let running;
  return {
    run(options, seconds) {
      if (running) throw new Error('a sign-in load is already running');
      running = new Promise((resolve, reject) => {
        const onExit = () => reject(new Error('the sign-in loader exited during a load'));
        child.once('exit', onExit);
        child.once('message', (reply) => {
          child.off('exit', onExit);
          running = undefined;
          if (reply.error) reject(new Error(reply.error));
          else resolve(reply.result);
        });
      });
      child.send({ run: options, seconds });
      return running;
    },
    stop() {
      child.send({ stop: true });
    },
    async close() {
      child.kill();
      await exited;
    },
  };
}

// The loader's side: one load at a time, its result sent back when it ends.
if (process.send && process.argv[1] === import.meta.filename) {
  let instance;
  process.on('message', (message) => {
    if (message.stop) {
      instance?.stop();
      return;
    }
    instance = autocannon(
      { ...signInLoad(message.run), duration: message.seconds },
      (err, result) => {
        instance = undefined;
        process.send(err ? { error: String(err.message) } : { result });
      },
    );
  });
  process.on('disconnect', () => process.exit(0));
  process.send('ready');
}
