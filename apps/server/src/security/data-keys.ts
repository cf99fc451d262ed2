import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { ConfigError, parseDataKeys, parseKeyBytes } from '../config.js';
import type { DataKeyring } from './field-crypto.js';
import { KEY_BYTES } from './field-crypto.js';

/** Where development keys are generated when none is configured (never in the database). */
export const DEV_KEYS_FILE = 'data-keys.json';

/**
 * The process's keys: the configured ones, or (outside production, where config refuses their
 * absence) those of DATA_DIR/data-keys.json, generated on first start with mode 0600. `note` is
 * the one start-up line that says keys came from that file.
 */
export function resolveDataKeys(config: Pick<Config, 'dataKeys' | 'dataDir'>): {
  keyring: DataKeyring;
  note: string | null;
} {
  const { encryption, index } = config.dataKeys;
  if (encryption && index) return { keyring: { keys: encryption, index }, note: null };
  const file = path.join(config.dataDir, DEV_KEYS_FILE);
  const created = createDevKeysFile(file);
  const stored = readDevKeysFile(file);
  return {
    keyring: { keys: encryption ?? stored.keys, index: index ?? stored.index },
    note: `data keys: ${created ? 'generated into' : 'read from'} ${file} (no DATA_ENCRYPTION_KEY or DATA_INDEX_KEY configured; development only — see docs/deployment.md)`,
  };
}

/** Writes new keys unless the file exists; atomic, so nodes or test workers starting together agree. */
function createDevKeysFile(file: string): boolean {
  if (fs.existsSync(file)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const content = JSON.stringify({
    encryption: `d1:${randomBytes(KEY_BYTES).toString('base64')}`,
    index: randomBytes(KEY_BYTES).toString('base64'),
  });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(temporary, `${content}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.unlinkSync(temporary);
  }
}

function readDevKeysFile(file: string): DataKeyring {
  const refuse = (why: string) =>
    new ConfigError(
      `Invalid configuration: ${file}: ${why} (remove it only if no data was sealed)`,
    );
  let content: unknown;
  try {
    content = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw refuse('not readable JSON');
  }
  if (
    typeof content !== 'object' ||
    content === null ||
    !('encryption' in content) ||
    !('index' in content) ||
    typeof content.encryption !== 'string' ||
    typeof content.index !== 'string'
  ) {
    throw refuse('expected {"encryption","index"}');
  }
  const keys = parseDataKeys(content.encryption);
  const index = parseKeyBytes(content.index);
  if (typeof keys === 'string') throw refuse(keys);
  if (typeof index === 'string') throw refuse(index);
  return { keys, index };
}
