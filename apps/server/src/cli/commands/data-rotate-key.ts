import { z } from 'zod';
import { checkDataKeyRotation, rotateDataKey } from '../../modules/users/key-rotation.js';
import { defineCommand, parseInput } from '../command.js';

const count = z.coerce.number().int().min(1).max(10_000);
const rotateInputSchema = z.object({
  batchSize: count.optional(),
  maxBatches: count.optional(),
});

function byKeyText(byKey: Record<string, number>): string {
  const entries = Object.entries(byKey);
  return entries.length === 0
    ? 'no sealed values'
    : entries
        .map(([key, n]) => `${n} under ${key === 'clear' ? 'no key (clear)' : `"${key}"`}`)
        .join(', ');
}

export const dataRotateKey = defineCommand({
  name: 'data:rotate-key',
  summary:
    're-encrypts the values sealed under an older data key (health identifiers, the server secret, the OIDC signing keys and tokens) with the active one (the first of DATA_ENCRYPTION_KEY), in batches, while the portal runs',
  usage: '[--check] [--batch-size N] [--max-batches N]',
  description: [
    'Re-encrypts with the active data key (the first of DATA_ENCRYPTION_KEY) every value sealed',
    'under another configured key — the health identifiers, the server secret and OIDC signing keys,',
    "and the OIDC provider's tokens, codes and sessions — in batches of short transactions, while",
    'the portal runs: a row edited meanwhile keeps the edit. Resumable: run it again to continue.',
    'Refuses, writing nothing, when a value is sealed with a key that is not configured',
    '(docs/deployment.md, Data keys).',
  ].join('\n'),
  options: {
    check: { type: 'boolean' },
    'batch-size': { type: 'string' },
    'max-batches': { type: 'string' },
  },
  help: {
    check: { text: 'count the values left under older keys, writing nothing' },
    'batch-size': { value: 'N', text: 'rows (accounts, OIDC artefacts) per batch (default 200)' },
    'max-batches': { value: 'N', text: 'stop after N batches (run it again to continue)' },
  },
  run: async (values, env) => {
    const input = parseInput(
      rotateInputSchema,
      { batchSize: values['batch-size'], maxBatches: values['max-batches'] },
      { batchSize: 'batch-size', maxBatches: 'max-batches' },
    );
    const ctx = await env.context();
    if (values.check) {
      const check = await checkDataKeyRotation(ctx);
      return {
        data: check,
        text: `active data key "${check.activeKey}": ${byKeyText(check.byKey)}; ${check.remaining} values to re-encrypt`,
      };
    }
    const rotation = await rotateDataKey(ctx, input);
    const done = `re-encrypted ${rotation.resealed} values with data key "${rotation.activeKey}" in ${rotation.batches} batches`;
    const left =
      rotation.remaining === 0
        ? 'none left under an older key: the older keys can be removed from DATA_ENCRYPTION_KEY'
        : rotation.stopped
          ? `${rotation.remaining} values left: run it again to continue`
          : `${rotation.remaining} values left under an older key (written meanwhile by a node still sealing with it? restart every node with the new key first, then run it again)`;
    return {
      data: rotation,
      text: `${done}; ${left}`,
      exitCode: rotation.remaining === 0 || rotation.stopped ? 0 : 1,
    };
  },
});
