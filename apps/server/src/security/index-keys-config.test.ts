import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { resolveDataKeys } from './data-keys.js';
import { blindIndex, blindIndexes } from './field-crypto.js';

// DATA_INDEX_KEY during an index-key change: the new key, then the old one (issue 21).

const key = () => randomBytes(32).toString('base64');

describe('DATA_INDEX_KEY with a former key', () => {
  it('reads the active key first and the former ones after it; lookups compute the index under each', () => {
    const [active, former] = [key(), key()];
    const config = loadConfig({
      DATA_ENCRYPTION_KEY: `k1:${key()}`,
      DATA_INDEX_KEY: `${active}, ${former}`,
    });
    const { keyring } = resolveDataKeys(config);
    expect(keyring.index.toString('base64')).toBe(active);
    expect(keyring.formerIndexes?.map((k) => k.toString('base64'))).toEqual([former]);
    const indexes = blindIndexes(keyring, 'users.ins', '280017505610077');
    expect(indexes).toHaveLength(2);
    expect(indexes[0]).toBe(blindIndex(keyring, 'users.ins', '280017505610077'));
    expect(indexes[1]).not.toBe(indexes[0]);
  });

  it.each([
    [`${Buffer.alloc(32, 1).toString('base64')},short`, 'DATA_INDEX_KEY: key 2: expected 32 bytes'],
    [
      `${Buffer.alloc(32, 1).toString('base64')},${Buffer.alloc(32, 1).toString('base64')}`,
      'DATA_INDEX_KEY: key 2 appears twice',
    ],
  ])('refuses %j in one line naming the variable', (value, message) => {
    const load = () => loadConfig({ DATA_INDEX_KEY: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
    expect(load).not.toThrow(/\n/);
  });

  it('never generates development keys for a database that holds sealed values', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-no-dev-keys-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      expect(() => resolveDataKeys(config, { sealedWith: ['k1'] })).toThrow(
        /^Invalid configuration: DATA_ENCRYPTION_KEY is not configured and .*data-keys\.json does not exist, but this database holds values sealed with data key "k1": restore the keys backed up with it/,
      );
      expect(fs.existsSync(path.join(dir, 'data-keys.json'))).toBe(false);
      // A restored data-keys.json is read as usual.
      resolveDataKeys(config);
      expect(resolveDataKeys(config, { sealedWith: ['d1'] }).note).toMatch(
        /^data keys: read from /,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
