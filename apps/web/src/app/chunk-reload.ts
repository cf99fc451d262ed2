import { browser } from '../lib/browser';
import { readStorage, writeStorage } from '../lib/storage';

const RELOAD_KEY = 'chunkReload';

/** A page chunk failed to load (usually a deployment replaced it): the route's lazy() threw. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A page of the application could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Reloads the page at `target` so the browser fetches the new build, once: if the same target
 * already failed after a reload, returns false and the error screen stays.
 */
export function reloadForChunkError(target: string): boolean {
  if (readStorage('sessionStorage', RELOAD_KEY) === target) return false;
  writeStorage('sessionStorage', RELOAD_KEY, target);
  browser.assign(target);
  return true;
}

/** Called once a page rendered: the next failure may reload again. */
export function clearChunkReload(): void {
  if (readStorage('sessionStorage', RELOAD_KEY) !== null) {
    writeStorage('sessionStorage', RELOAD_KEY, null);
  }
}
