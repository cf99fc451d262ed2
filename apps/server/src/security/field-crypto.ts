import type { KeyObject } from 'node:crypto';
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  randomBytes,
} from 'node:crypto';

/** A 256-bit data key and the id written into every value it seals. */
export interface DataKey {
  id: string;
  key: Buffer;
}

/**
 * The keys of the process: data keys (the first seals, every one opens) and the blind-index key.
 * They come from the configuration or, in development, a file under DATA_DIR — never from the
 * database.
 */
export interface DataKeyring {
  /** The active key first; the others only open values sealed before a rotation. */
  keys: readonly DataKey[];
  /** The index key new blind indexes are computed with. */
  index: Buffer;
  /**
   * Index keys being replaced (`DATA_INDEX_KEY`'s later entries): while `data:rotate-key --index`
   * rebuilds the indexes, a stored index may still be under one of them, so lookups try them too.
   */
  formerIndexes?: readonly Buffer[];
}

/** A value that could not be opened: unknown key, wrong key, tampered or moved value. */
export class DataKeyError extends Error {}

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;
/** Key ids go inside stored values between dots: letters and digits only. */
export const KEY_ID = /^[A-Za-z0-9]{1,16}$/;

// Each key imported once: given as bytes, every cipher imports it again, which costs four times
// the AES-GCM opening of a short value (every read of a user opens its sealed fields).
const imported = new WeakMap<Buffer, KeyObject>();

function keyObjectOf(key: Buffer): KeyObject {
  let object = imported.get(key);
  if (!object) {
    object = createSecretKey(key);
    imported.set(key, object);
  }
  return object;
}

/** Whether a stored value is sealed (`v1.` prefix); values from before encryption are not. */
export function isSealed(value: string): boolean {
  return value.startsWith(`${FORMAT}.`);
}

/** The key id a stored value was sealed with; `clear` for a value from before sealing. */
export function sealedKeyId(stored: string): string {
  return isSealed(stored) ? (stored.split('.')[1] ?? '') : 'clear';
}

/** The id of the key new values are sealed with (the first configured). */
export function activeKeyId(keyring: DataKeyring): string {
  const active = keyring.keys[0];
  if (!active) throw new DataKeyError('no data key');
  return active.id;
}

/**
 * Seals a value with the active key: AES-256-GCM, a random 96-bit IV, and `context` (the table,
 * column and row the value belongs to) as additional data, so that a value copied to another
 * column or row does not open. Stored as `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url).
 */
export function seal(keyring: DataKeyring, context: string, plain: string): string {
  const active = keyring.keys[0];
  if (!active) throw new DataKeyError('no data key');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(active.key), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [FORMAT, active.id, iv.toString('base64url'), body.toString('base64url')].join('.');
}

/** Opens a sealed value for `context`; throws DataKeyError rather than return anything else. */
export function open(keyring: DataKeyring, context: string, stored: string): string {
  const [format, keyId, ivText, bodyText, extra] = stored.split('.');
  if (format !== FORMAT || !keyId || !ivText || !bodyText || extra !== undefined) {
    throw new DataKeyError('not a sealed value');
  }
  const key = keyring.keys.find((k) => k.id === keyId);
  if (!key)
    throw new DataKeyError(`value sealed with data key "${keyId}", which is not configured`);
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new DataKeyError('malformed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key.key), iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString('utf8');
  } catch {
    throw new DataKeyError(
      `value does not open with data key "${keyId}" (wrong key or moved value)`,
    );
  }
}

/**
 * The blind index of a value: HMAC-SHA256 under the index key (not a data key), with `purpose`
 * separating the indexes of different columns. Equal inputs give equal indexes, so the database
 * finds a value by exact match without holding it or a plain hash anyone could recompute.
 */
export function blindIndex(keyring: DataKeyring, purpose: string, value: string): string {
  return hmacIndex(keyring.index, purpose, value);
}

/**
 * Every blind index a stored value may have: under the active index key first, then under each
 * former one (none outside an index-key rebuild). Lookups match any of them.
 */
export function blindIndexes(keyring: DataKeyring, purpose: string, value: string): string[] {
  return [keyring.index, ...(keyring.formerIndexes ?? [])].map((key) =>
    hmacIndex(key, purpose, value),
  );
}

function hmacIndex(key: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', keyObjectOf(key)).update(`${purpose}\0${value}`).digest('base64url');
}

let installed: DataKeyring | null = null;

/** Makes the keys the process's (start-up, once they passed the database's check values). */
export function installDataKeys(keyring: DataKeyring): void {
  installed = keyring;
}

/** The process's keys; the repositories seal and open with them. */
export function dataKeys(): DataKeyring {
  if (!installed) throw new DataKeyError('data keys are not loaded (the server did not start)');
  return installed;
}
