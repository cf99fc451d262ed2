import { z } from 'zod';
import { rotateKeys, signingKeyList } from '../../modules/oidc/service.js';
import { defineCommand, parseInput } from '../command.js';

const keysInputSchema = z.object({ step: z.enum(['stage', 'promote', 'retire']).optional() });

/** What the operator does after each step (docs/oidc.md). */
const NEXT_STEP = {
  stage: 'published, not signing: restart the nodes (rolling), then promote in 20 minutes or more',
  promote: 'the new key signs: restart the nodes (rolling), then retire in 1 h 20 min or more',
  retire: 'the old key is no longer published: restart the nodes (rolling)',
} as const;

export const oidcKeys = defineCommand({
  name: 'oidc:keys',
  summary: 'lists the OpenID Connect signing keys, or applies one step of their rotation',
  usage: '[--step stage|promote|retire]',
  description:
    'Lists the OpenID Connect signing keys (the one that signs first), or applies one audited step\nof their rotation; a step that comes too early is refused with the wait (docs/oidc.md).',
  options: { step: { type: 'string' } },
  help: {
    step: { value: 'STEP', text: 'stage a new key, promote it to signing, or retire the old one' },
  },
  run: async (values, env) => {
    const { step } = parseInput(keysInputSchema, { step: values.step }, { step: 'step' });
    const ctx = await env.context();
    const { keys } = step
      ? await rotateKeys(ctx, step, { userId: null, ip: null })
      : await signingKeyList(ctx);
    const next = step ? NEXT_STEP[step] : null;
    const lines = keys.map((k) => `${k.kid} ${k.alg} ${k.signing ? 'signs' : 'published'}`);
    return {
      data: { keys, ...(step ? { step, next } : {}) },
      text: [...lines, ...(next ? [next] : [])].join('\n'),
    };
  },
});
