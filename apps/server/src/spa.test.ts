import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './test/helpers.js';
import { createTestApp } from './test/helpers.js';

// The built web client answers every page path; the well-known documents are not pages.
describe('the web client and /.well-known', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-spa-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!DOCTYPE html><title>Hygie</title>');
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves the web client on page paths', async () => {
    const page = await t.app.inject('/security/login');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Hygie</title>');
  });

  it('sends discovery at the host root to the issuer’s, and answers other well-known paths 404', async () => {
    for (const document of ['openid-configuration', 'oauth-authorization-server']) {
      const root = await t.app.inject(`/.well-known/${document}`);
      expect(root.statusCode).toBe(308);
      expect(root.headers.location).toBe('/oidc/.well-known/openid-configuration');
    }
    const followed = await t.app.inject('/oidc/.well-known/openid-configuration');
    expect(followed.json()).toMatchObject({ issuer: 'http://localhost:3000/oidc' });
    const other = await t.app.inject('/.well-known/security.txt');
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/^application\/json/);
  });
});
