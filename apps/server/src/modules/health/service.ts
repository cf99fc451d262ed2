import type { DbHandle } from '../../db/connection.js';
import type { Lifecycle } from '../../lifecycle.js';

const READY_TIMEOUT_MS = 2000;

export type Readiness =
  | { ready: true }
  | { ready: false; reason: 'draining' }
  | { ready: false; reason: 'database'; err: unknown };

/** Ready while not draining and the database answers a ping within 2 s. */
export async function checkReadiness(
  database: Pick<DbHandle, 'ping'>,
  lifecycle: Pick<Lifecycle, 'draining'>,
): Promise<Readiness> {
  // A draining node tells the load balancer to stop sending it traffic.
  if (lifecycle.draining) return { ready: false, reason: 'draining' };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database ping timed out')), READY_TIMEOUT_MS);
      }),
    ]);
    return { ready: true };
  } catch (err) {
    return { ready: false, reason: 'database', err };
  } finally {
    clearTimeout(timer);
  }
}
