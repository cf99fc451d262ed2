import type { DataKeyring } from '../security/field-crypto.js';

/** The data keys every test app runs with (fixed, so a reopened database still opens). */
export const TEST_DATA_KEYS = {
  encryption: `t1:${Buffer.alloc(32, 7).toString('base64')}`,
  index: Buffer.alloc(32, 9).toString('base64'),
};

/** The same keys as a keyring, for tests that use repositories on a database without an app. */
export const TEST_KEYRING: DataKeyring = {
  keys: [{ id: 't1', key: Buffer.alloc(32, 7) }],
  index: Buffer.alloc(32, 9),
};
