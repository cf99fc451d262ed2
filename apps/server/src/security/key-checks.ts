import type { DataKeyring } from './field-crypto.js';
import { blindIndex } from './field-crypto.js';

// The check values that prove, at every start, that the configured keys are the database's
// (bootstrap.ts), kept in settings — never the keys themselves.

export const KEY_CHECK_CONTEXT = 'hygie:data-key-check';
export const KEY_CHECK_TEXT = 'Hygie data key check';
/** One setting per data key id: the known text sealed with that key. */
export const DATA_KEY_CHECK = 'internal.data-key-check.';
/** The index key's check value: names the key every stored blind index is computed with. */
export const INDEX_KEY_CHECK = 'internal.data-index-key-check';
/**
 * While an index-key change is under way, the check value of the key it moves to, written by the
 * first node started with it in front: a node started with the old key alone, or with another new
 * key, is refused until the rebuild ends (and deletes it).
 */
export const INDEX_KEY_NEXT = 'internal.data-index-key-next';

/** The stored form of an index key's check value (its HMAC of the known text, as JSON). */
export function indexKeyCheck(key: Buffer): string {
  const only: DataKeyring = { keys: [], index: key };
  return JSON.stringify(blindIndex(only, KEY_CHECK_CONTEXT, KEY_CHECK_TEXT));
}
