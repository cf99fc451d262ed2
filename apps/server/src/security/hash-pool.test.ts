import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '../lib/app-error.js';
import type { Admission } from './hash-pool.js';
import { clientOf, HashPool } from './hash-pool.js';

const OPTIONS = { memoryCost: 8192, timeCost: 1, parallelism: 1, algorithm: 2, outputLen: 32 };

/** The nice value of a /proc stat line (field 19, after the command name in parentheses). */
function niceOf(stat: string): number {
  // Fields after the command name, which is in parentheses and may hold spaces.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The nice value of each thread of this process, by thread id (Linux: /proc/self/task). */
function threadNiceness(): Map<string, number> {
  return new Map(
    fs
      .readdirSync('/proc/self/task')
      .map((tid) => [tid, niceOf(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'))]),
  );
}

describe('the hashing pool', () => {
  const pools: HashPool[] = [];
  const pool = (size: number, maxQueue: number) => {
    const p = new HashPool(size, maxQueue);
    pools.push(p);
    return p;
  };
  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('hashes with argon2id and verifies, off the event loop', async () => {
    const p = pool(2, 8);
    const encoded = await p.run({ op: 'hash', password: 'Steady-Lamp-4821', options: OPTIONS });
    expect(encoded).toMatch(/^\$argon2id\$v=19\$m=8192,t=1,p=1\$/);
    expect(
      await p.run({ op: 'verify', password: 'Steady-Lamp-4821', encoded: String(encoded) }),
    ).toBe(true);
    expect(
      await p.run({ op: 'verify', password: 'steady-lamp-4821', encoded: String(encoded) }),
    ).toBe(false);
    await expect(p.run({ op: 'verify', password: 'x', encoded: 'not-a-hash' })).rejects.toThrow();
    // The worker that refused a malformed hash still serves.
    expect(
      await p.run({ op: 'verify', password: 'Steady-Lamp-4821', encoded: String(encoded) }),
    ).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'runs its workers below the event loop’s priority',
    async () => {
      // The test process may hold other pools' threads already (files share their worker).
      const before = threadNiceness();
      const mainBefore = niceOf(fs.readFileSync('/proc/self/stat', 'utf8'));
      const p = pool(2, 8);
      await Promise.all([
        p.run({ op: 'hash', password: 'a', options: OPTIONS }),
        p.run({ op: 'hash', password: 'b', options: OPTIONS }),
      ]);
      const added = [...threadNiceness()].filter(([tid]) => !before.has(tid));
      expect(added.filter(([, nice]) => nice === 10)).toHaveLength(2);
      // The event loop's thread (the process's first) keeps its priority.
      expect(niceOf(fs.readFileSync('/proc/self/stat', 'utf8'))).toBe(mainBefore);
    },
  );

  it('serves one client’s jobs first come, first served, at most its size at once', async () => {
    const p = pool(1, 8);
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        p.run({ op: 'hash', password: `p${i}`, options: OPTIONS }).then(() => order.push(i)),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('refuses a job past its queue limit with 503 and Retry-After, and serves the others', async () => {
    const p = pool(1, 2);
    const jobs = [0, 1, 2, 3].map((i) =>
      p.run({ op: 'hash', password: `q${i}`, options: OPTIONS }).then(
        () => 'done',
        (err: unknown) => err,
      ),
    );
    const results = await Promise.all(jobs);
    // One running, two waiting, the fourth refused.
    expect(results.slice(0, 3)).toEqual(['done', 'done', 'done']);
    const refused = results[3];
    expect(isAppError(refused) && refused.code).toBe('service_unavailable');
    expect(isAppError(refused) && refused.headers?.['retry-after']).toBe('1');
  });

  /** Runs a hash for `client`; resolves to its label, or `refused: <code>`. */
  const hashFor = (p: HashPool, client: string, label: string) =>
    p.run({ op: 'hash', password: label, options: OPTIONS }, client).then(
      () => label,
      (err: unknown) => `refused: ${isAppError(err) ? err.code : String(err)}`,
    );

  it('serves the clients in turn: a burst from one address does not hold back another’s job', async () => {
    const p = pool(1, 16);
    const order: string[] = [];
    const done = (label: string) => order.push(label);
    const burst = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
      hashFor(p, '203.0.113.7', `burst ${i}`).then(done),
    );
    const other = hashFor(p, '198.51.100.9', 'other').then(done);
    await Promise.all([...burst, other]);
    // First served: the burst's first (the worker was free), then one job of each client waiting
    // in turn; never the burst's eight before the other address's one.
    expect(order.indexOf('other')).toBeLessThanOrEqual(2);
    expect(order.filter((label) => label.startsWith('burst'))).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `burst ${i}`),
    );
  });

  it('tells clients by IPv4 address, and by IPv6 /64 network (one subscriber’s addresses)', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8:a:b:1:2:3:4')).toBe('2001:db8:a:b::/64');
    expect(clientOf('2001:DB8:A:B::9')).toBe('2001:db8:a:b::/64');
    expect(clientOf('2001:0db8:000a:000b:ffff::1')).toBe('2001:db8:a:b::/64');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('2001:db8:a:c::1')).not.toBe(clientOf('2001:db8:a:b::1'));
    expect(clientOf('')).toBe('');
  });

  it('a burst from many addresses of one IPv6 network is one client', async () => {
    const p = pool(1, 16);
    const order: string[] = [];
    const done = (label: string) => order.push(label);
    const burst = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
      hashFor(p, `2001:db8:a:b::${i + 1}`, `burst ${i}`).then(done),
    );
    const other = hashFor(p, '2001:db8:a:c::1', 'other').then(done);
    await Promise.all([...burst, other]);
    expect(order.indexOf('other')).toBeLessThanOrEqual(2);
  });

  it('full, it refuses the newest job of the client with the most waiting, not a newcomer’s', async () => {
    const p = pool(1, 3);
    // One running and three waiting from one address: the queue is full.
    const burst = [0, 1, 2, 3].map((i) => hashFor(p, '203.0.113.7', `burst ${i}`));
    // Another address's job takes the place of the burst's newest, which is refused.
    const other = hashFor(p, '198.51.100.9', 'other');
    // The burst, now the largest no more than itself, is refused its next.
    const more = hashFor(p, '203.0.113.7', 'burst 4');
    // A third address: the burst, with two waiting, still has the most; its newest goes.
    const third = hashFor(p, '192.0.2.44', 'third');
    // A fourth: every address now has one waiting, as it would: it does not push one out.
    const fourth = hashFor(p, '192.0.2.45', 'fourth');
    expect(await Promise.all([...burst, other, more, third, fourth])).toEqual([
      'burst 0',
      'burst 1',
      'refused: service_unavailable',
      'refused: service_unavailable',
      'other',
      'refused: service_unavailable',
      'third',
      'refused: service_unavailable',
    ]);
  });

  /** A password step for `client`: let in, its admission's order noted, then its hash. */
  const stepFor = (p: HashPool, client: string, label: string, order: string[]) =>
    p.admit(client).then(
      async (admission) => {
        order.push(label);
        await p.run({ op: 'hash', password: label, options: OPTIONS }, client, admission);
        return label;
      },
      (err: unknown) => `refused: ${isAppError(err) ? err.code : String(err)}`,
    );

  it('lets in at most twice its size of one address’s password steps at once; another address’s at once beside them', async () => {
    const p = new HashPool(1, 16, 10, 2);
    pools.push(p);
    const order: string[] = [];
    const burst = [0, 1, 2, 3, 4, 5].map((i) => stepFor(p, '203.0.113.7', `burst ${i}`, order));
    const other = stepFor(p, '198.51.100.9', 'other', order);
    await Promise.all([...burst, other]);
    // Two of the burst let in at once, then one more each time one of their hashes starts: the
    // other address's step is let in third, at once, not after the burst's six.
    expect(order.indexOf('other')).toBe(2);
    expect(order.filter((label) => label.startsWith('burst'))).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `burst ${i}`),
    );
  });

  it('lets in no more than its limits of steps whose hash has not started; a release or a hash starting lets the next in', async () => {
    // Two of one client's at a time, three of all clients'.
    const p = new HashPool(1, 8, 10, 2, 3);
    pools.push(p);
    const first = await p.admit('203.0.113.7');
    const second = await p.admit('203.0.113.7');
    const letIn: string[] = [];
    const noted = (label: string) => (admission: Admission) => {
      letIn.push(label);
      return admission;
    };
    // The client's third waits for one of its two; another client's is let in (three in all).
    const third = p.admit('203.0.113.7').then(noted('third'));
    const other = await p.admit('198.51.100.9');
    // A third client's waits for the three.
    const last = p.admit('192.0.2.44').then(noted('last'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(letIn).toEqual([]);
    // A step that ends without a hash (a refused attempt) gives its place, once however often:
    // the first client's third, which waited first, takes it.
    first.release();
    first.release();
    await third;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(letIn).toEqual(['third']);
    // A step's hash starting on the worker gives its place too.
    const hashed = p.run({ op: 'hash', password: 'p', options: OPTIONS }, '203.0.113.7', second);
    await last;
    expect(letIn).toEqual(['third', 'last']);
    await hashed;
    other.release();
    (await third).release();
    (await last).release();
  });

  it('full, it refuses the newest step of the client with the most waiting, with 503 and Retry-After', async () => {
    // One step let in at a time, two waiting at most.
    const p = new HashPool(1, 2, 10, 1, 1);
    pools.push(p);
    const order: string[] = [];
    // One let in and two waiting: the burst's fourth, a third waiting, is refused.
    const burst = [0, 1, 2, 3].map((i) => stepFor(p, '203.0.113.7', `burst ${i}`, order));
    // Another address's step takes the place of the burst's newest waiting (its third).
    const other = stepFor(p, '198.51.100.9', 'other', order);
    expect(await Promise.all([...burst, other])).toEqual([
      'burst 0',
      'burst 1',
      'refused: service_unavailable',
      'refused: service_unavailable',
      'other',
    ]);
    // Refused as a job is: 503 and Retry-After.
    const held = await p.admit('192.0.2.1');
    const waiting = [p.admit('192.0.2.1'), p.admit('192.0.2.1')];
    const refused = await p.admit('192.0.2.1').catch((err: unknown) => err);
    expect(isAppError(refused) && refused.code).toBe('service_unavailable');
    expect(isAppError(refused) && refused.headers?.['retry-after']).toBe('1');
    held.release();
    for (const next of waiting) (await next).release();
  });

  it('a step there is room for is let in at once, pushing out none of the steps waiting for their client’s turn', async () => {
    // One of a client's steps at a time, four in all; two waiting at most.
    const p = new HashPool(1, 2, 10, 1, 4);
    pools.push(p);
    const held = await p.admit('203.0.113.7');
    // The queue full of that client's steps, waiting for its one.
    const second = p.admit('203.0.113.7');
    const third = p.admit('203.0.113.7');
    // Another address: in at once, and the steps waiting keep their places.
    const other = await p.admit('198.51.100.9');
    held.release();
    (await second).release();
    (await third).release();
    other.release();
  });
});
