// The baseline of the sign-in bench: raw argon2id verifications of the portal's default parameters
// (the same library, on libuv's pool as a bare script would), CONCURRENCY at a time for DURATION
// seconds. Prints {"perSecond": …} on its last line.
import { hash, verify } from '@node-rs/argon2';

const concurrency = Number(process.env.CONCURRENCY ?? 1);
const durationMs = Number(process.env.DURATION ?? 5) * 1000;
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2, outputLen: 32 };
const encoded = await hash('Steady-Lamp-4821', options);
// Warm-up: one round at the concurrency.
await Promise.all(Array.from({ length: concurrency }, () => verify(encoded, 'Steady-Lamp-4821')));
let done = 0;
const end = Date.now() + durationMs;
const started = Date.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < end) {
      if (!(await verify(encoded, 'Steady-Lamp-4821'))) throw new Error('verify failed');
      done++;
    }
  }),
);
console.log(JSON.stringify({ perSecond: done / ((Date.now() - started) / 1000) }));
