import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';

/** Deepest nesting walked: request bodies are small, flat objects; deeper is refused by schemas. */
const MAX_DEPTH = 8;

/** The path of the first string holding a NUL character, if any. */
export function pathOfNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(value)' : undefined;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return path ? `${path}.(key)` : '(key)';
    const found = pathOfNul(item, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Refuses a NUL character anywhere in a body, a query string or a path parameter, before any
 * rule or database sees it: PostgreSQL cannot store one in text (it would answer an error, a 500),
 * and no field of the portal has a use for it. Both databases then answer the same 400.
 */
export const inputGuard = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', (request, _reply, done) => {
    const path = pathOfNul(request.params) ?? pathOfNul(request.query) ?? pathOfNul(request.body);
    if (path !== undefined) {
      done(new AppError('validation_error', { fields: [{ path, message: 'field_invalid' }] }));
      return;
    }
    done();
  });
});
