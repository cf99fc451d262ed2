import type { Command } from './command.js';
import { auditExport } from './commands/audit-export.js';
import { cguPublish } from './commands/cgu-publish.js';
import { configCheck } from './commands/config-check.js';
import { dataRotateKey } from './commands/data-rotate-key.js';
import { invite } from './commands/invite.js';
import { migrate } from './commands/migrate.js';
import { oidcKeys } from './commands/oidc-keys.js';
import { platformAdd } from './commands/platform-add.js';
import { userLock, userReset, userUnlock } from './commands/user-actions.js';

/**
 * The operator commands, in the order `cli --help` lists them. A new command is one module in
 * ./commands (defineCommand) and one line here; its root npm script goes in package.json.
 */
export const COMMANDS: readonly Command[] = [
  migrate,
  invite,
  cguPublish,
  platformAdd,
  oidcKeys,
  userLock,
  userUnlock,
  userReset,
  auditExport,
  dataRotateKey,
  configCheck,
];
