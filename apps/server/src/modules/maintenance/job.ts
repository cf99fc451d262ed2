import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { PURGE_INTERVAL_MS, purgeExpired } from './service.js';

/**
 * Runs the purge every hour on this node (never two at once); a failed run is logged and the next
 * one tries again. Returns the function that stops it.
 */
export function scheduleMaintenance(
  ctx: AppContext,
  log: FastifyBaseLogger,
  intervalMs = PURGE_INTERVAL_MS,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(ctx)
      .then((counts) => {
        if (Object.values(counts).some((n) => n > 0)) log.info({ purged: counts }, 'purged');
      })
      .catch((err: unknown) => log.warn({ err }, 'purge failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
