import { installDataKeys } from '../security/field-crypto.js';
import { TEST_KEYRING } from './data-keys.js';

// A started app installs its data keys; tests that use the users repository on a bare database
// (no app) seal and open with the same ones.
installDataKeys(TEST_KEYRING);
