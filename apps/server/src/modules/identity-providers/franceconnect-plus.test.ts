// FranceConnect+ (issue #16): a FranceConnect asked for eidas2 or more only is FranceConnect+,
// and the public configuration says so, for the web app to show the FranceConnect+ button.
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, DIALECTS, TestClient } from '../../test/helpers.js';
import { isFranceConnectPlus } from './claims.js';

describe('isFranceConnectPlus', () => {
  it.each([
    ['franceconnect', ['eidas2'], true],
    ['franceconnect', ['eidas2', 'eidas3'], true],
    ['franceconnect', ['eidas3'], true],
    ['franceconnect', ['eidas1'], false],
    ['franceconnect', ['eidas1', 'eidas2'], false],
    ['franceconnect', [], false],
    ['franceconnect', ['https://example.test/loa-high'], false],
    ['psc', ['eidas2'], false],
  ] as const)('%s asked for %j: %s', (kind, acrValues, expected) => {
    expect(isFranceConnectPlus(kind, acrValues)).toBe(expected);
  });
});

const FRANCECONNECT = {
  FRANCECONNECT_ISSUER: 'https://fc.example.test',
  FRANCECONNECT_CLIENT_ID: 'hygie',
  FRANCECONNECT_CLIENT_SECRET: 'a-client-secret-of-the-portal-at-the-provider',
};

describe.each(DIALECTS)('public configuration and FranceConnect+ (%s)', (dialect) => {
  let t: TestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function publicConfig(env: Record<string, string>) {
    t = await createTestApp(dialect, { env });
    const res = await new TestClient(t.app).get('/api/config');
    expect(res.statusCode).toBe(200);
    return res.json<Record<string, unknown>>();
  }

  it('says franceConnectPlus when FranceConnect is asked for eidas2 or more', async () => {
    const config = await publicConfig({
      ...FRANCECONNECT,
      FRANCECONNECT_ACR_VALUES: 'eidas2 eidas3',
    });
    expect(config.identityProviders).toEqual(['franceconnect']);
    expect(config.franceConnectPlus).toBe(true);
  });

  it('says nothing of it for FranceConnect at its default level, or without FranceConnect', async () => {
    expect(await publicConfig(FRANCECONNECT)).not.toHaveProperty('franceConnectPlus');
    await t?.close();
    expect(await publicConfig({})).not.toHaveProperty('franceConnectPlus');
  });
});
