import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What every line written while serving a request can name: its id and who sent it. */
export interface RequestScope {
  requestId: string;
  userAgent: string | null;
  /** The client's address (the proxy's word for it where one is trusted): whose work this is. */
  client: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (the rest of a request) inside its scope. */
export function runInRequestScope(scope: RequestScope, work: () => void): void {
  storage.run(scope, work);
}

/** The scope of the request being served, if any (none for jobs and the CLI). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * A request id the proxy in front already gave (`X-Request-Id`) when it is well formed — letters,
 * digits and `._:-`, 8 to 128 characters, as UUIDs, nginx's and most gateways' are — otherwise a
 * new UUID. A malformed one is replaced, never echoed into logs.
 */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming)
    ? incoming
    : randomUUID();
}
