import { describe, expect, it } from 'vitest';
import { canUsePlatform, nextUserAction } from './access.js';

describe('platform access rule', () => {
  it.each([
    ['open', null, true, 'open'],
    ['open', 'enabled', true, 'open'],
    ['open', 'disabled', false, 'none'],
    ['on_request', null, false, 'enable'],
    ['on_request', 'enabled', true, 'open'],
    ['on_request', 'disabled', false, 'none'],
    ['admin', null, false, 'request'],
    ['admin', 'requested', false, 'pending'],
    ['admin', 'enabled', true, 'open'],
    ['admin', 'disabled', false, 'none'],
  ] as const)('%s with access %s: usable %s, next action %s', (policy, status, usable, action) => {
    expect(canUsePlatform(policy, status)).toBe(usable);
    expect(nextUserAction(policy, status)).toBe(action);
  });
});
