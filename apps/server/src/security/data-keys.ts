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
 * the one start-up line that says keys came from that file. Keys are never generated for a
 * database that already holds sealed values (`sealedWith`: the data key ids it knows): that is a
 * database restored without its keys, refused in one line.
 */
export function resolveDataKeys(
  config: Pick<Config, 'dataKeys' | 'dataDir'>,
  database: { sealedWith: readonly string[] } = { sealedWith: [] },
): {
  keyring: DataKeyring;
  note: string | null;
} {
  const { encryption, index } = config.dataKeys;
  const [activeIndex, ...formerIndexes] = index ?? [];
  if (encryption && activeIndex) {
    return { keyring: { keys: encryption, index: activeIndex, formerIndexes }, note: null };
  }
  const file = path.join(config.dataDir, DEV_KEYS_FILE);
  if (database.sealedWith.length > 0 && !fs.existsSync(file)) {
    // A database restored without its keys: new keys would open none of its values.
    const missing = encryption ? 'DATA_INDEX_KEY' : 'DATA_ENCRYPTION_KEY';
    throw new ConfigError(
      `Invalid configuration: ${missing} is not configured and ${file} does not exist, but this database holds values sealed with data key ${database.sealedWith.map((id) => `"${id}"`).join(', ')}: restore the keys backed up with it (docs/deployment.md, Backup and restore)`,
    );
  }
  const created = createDevKeysFile(file);
  const stored = readDevKeysFile(file);
  return {
    keyring: activeIndex
      ? { keys: encryption ?? stored.keys, index: activeIndex, formerIndexes }
      : { keys: encryption ?? stored.keys, index: stored.index },
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
