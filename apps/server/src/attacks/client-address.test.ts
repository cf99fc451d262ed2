import { describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, TestClient } from '../test/helpers.js';

// Attacker suite (security issue, point 6): a client must not choose the address that per-IP
// throttles and audit lines read by sending its own X-Forwarded-For.

async function addressSeen(
  env: Record<string, string>,
  forwardedFor: string,
): Promise<string | null> {
  const t = await createTestApp('sqlite', { env });
  try {
    const res = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/login',
      payload: { username: ADMIN.email, password: ADMIN.password },
      headers: { 'x-forwarded-for': forwardedFor },
    });
    expect(res.json()).toMatchObject({ code: 'two_factor_authentication_required' });
    const session = await t.ctx.db.selectFrom('sessions').select('ip').executeTakeFirstOrThrow();
    return session.ip;
  } finally {
    await t.close();
  }
}

describe('the client address', () => {
  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    expect(await addressSeen({}, '6.6.6.6')).toBe('127.0.0.1');
  });

  it('takes only the address the trusted proxy appended, not the ones the client wrote', async () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the one proxy in front appended 203.0.113.7.
    expect(await addressSeen({ TRUST_PROXY: '1' }, '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    expect(await addressSeen({ TRUST_PROXY: '127.0.0.1' }, '6.6.6.6, 203.0.113.7')).toBe(
      '203.0.113.7',
    );
  });
});
