import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { checkIndexRebuild, rebuildIndexes } from '../../modules/users/index-rebuild.js';
import { checkDataKeyRotation, rotateDataKey } from '../../modules/users/key-rotation.js';
import type { CommandResult } from '../command.js';
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

/** `--index`: the INS indexes rebuilt under the first DATA_INDEX_KEY, then its check value moved. */
async function indexKeyRotation(
  ctx: AppContext,
  check: boolean | undefined,
  options: z.output<typeof rotateInputSchema>,
): Promise<CommandResult> {
  if (check) {
    const state = await checkIndexRebuild(ctx);
    return {
      data: state,
      text: `INS indexes: ${state.indexes}, of which ${state.remaining} to rebuild under the first DATA_INDEX_KEY; ${
        state.checkValueMoved
          ? 'the index check value names it'
          : 'the index check value still names a former key'
      }`,
    };
  }
  const rebuild = await rebuildIndexes(ctx, options);
  const done = `rebuilt ${rebuild.rebuilt} INS indexes under the first DATA_INDEX_KEY in ${rebuild.batches} batches`;
  const left = rebuild.checkValueMoved
    ? 'none left under a former key, and the index check value names the new key: the former keys can be removed from DATA_INDEX_KEY'
    : rebuild.stopped
      ? `${rebuild.remaining} left: run it again to continue`
      : `${rebuild.remaining} left under a former key (written meanwhile by a node without the new key first? restart every node with DATA_INDEX_KEY="new,old" first, then run it again)`;
  return {
    data: rebuild,
    text: `${done}; ${left}`,
    exitCode: rebuild.checkValueMoved || rebuild.stopped ? 0 : 1,
  };
}

export const dataRotateKey = defineCommand({
  name: 'data:rotate-key',
  summary:
    're-encrypts the values sealed under an older data key (health identifiers, the server secret, the OIDC signing keys and tokens) with the active one (the first of DATA_ENCRYPTION_KEY), in batches, while the portal runs; with --index, rebuilds the INS indexes under a new index key',
  usage: '[--index] [--check] [--batch-size N] [--max-batches N]',
  description: [
    'Re-encrypts with the active data key (the first of DATA_ENCRYPTION_KEY) every value sealed',
    'under another configured key — the health identifiers, the server secret and OIDC signing keys,',
    "and the OIDC provider's tokens, codes and sessions — in batches of short transactions, while",
    'the portal runs: a row edited meanwhile keeps the edit. Resumable: run it again to continue.',
    'Refuses, writing nothing, when a value is sealed with a key that is not configured',
    '(docs/deployment.md, Data keys).',
    'With --index: rebuilds every INS index under the first DATA_INDEX_KEY (the nodes run with',
    'DATA_INDEX_KEY="new,old" meanwhile), then moves the index check value to it.',
  ].join('\n'),
  options: {
    index: { type: 'boolean' },
    check: { type: 'boolean' },
    'batch-size': { type: 'string' },
    'max-batches': { type: 'string' },
  },
  help: {
    index: {
      text: 'rotate the index key instead: rebuild the INS indexes under the first DATA_INDEX_KEY',
    },
    check: { text: 'count the values (or with --index, the indexes) left to do, writing nothing' },
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
    if (values.index) return indexKeyRotation(ctx, values.check, input);
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
