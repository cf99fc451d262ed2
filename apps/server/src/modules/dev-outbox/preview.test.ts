import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, LANGUAGES } from '@hygie/domain';
import { TEMPLATE_NAMES } from '../../messaging/templates.js';
import type { TestApp } from '../../test/helpers.js';
import { createTestApp, TestClient } from '../../test/helpers.js';

const DELIVERY = { SMTP_URL: 'smtp://127.0.0.1:1', SMS_GATEWAY_URL: 'http://127.0.0.1:1/sms' };

describe('the e-mail preview in development', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Real transports configured: the preview does not depend on the dev outbox.
    t = await createTestApp('sqlite', {
      env: { NODE_ENV: 'development', TIME_ZONE: 'UTC', ...DELIVERY },
    });
  });
  afterAll(() => t.close());

  it('lists every template in every language and brand, each page rendering', async () => {
    const client = new TestClient(t.app);
    const index = await client.get('/api/dev/emails');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toContain('text/html');
    const links = [...index.body.matchAll(/href="([^"]+)"/g)].map((m) =>
      (m[1] ?? '').replace(/&amp;/g, '&'),
    );
    expect(links).toHaveLength(TEMPLATE_NAMES.length * LANGUAGES.length * BRANDS.length * 2);
    for (const link of links.filter((href) => !href.includes('format=text'))) {
      const page = await client.get(link);
      expect(page.statusCode, link).toBe(200);
      expect(page.body).toContain('<img src="');
      expect(page.body).toContain(t.ctx.config.contactEmail);
    }
  });

  it('shows a template as HTML in its language and brand, and its plain-text part', async () => {
    const client = new TestClient(t.app);
    const html = await client.get('/api/dev/emails/sign_in_notice?language=ar&brand=telecare');
    expect(html.body).toContain('lang="ar" dir="rtl"');
    expect(html.body).toContain('/brands/telecare.png');
    // Dates follow TIME_ZONE.
    expect(html.body).toContain('10:00 UTC');
    const text = await client.get('/api/dev/emails/mfa_code?language=fr&format=text');
    expect(text.headers['content-type']).toContain('text/plain');
    expect(text.body).toContain('Subject: Hygie : votre code de connexion');
    expect(text.body).toContain('valable 10 minutes');
  });

  it('refuses an unknown template or language with a 400', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/api/dev/emails/nothing')).statusCode).toBe(400);
    expect((await client.get('/api/dev/emails/mfa_code?language=de')).statusCode).toBe(400);
  });
});

describe('the e-mail preview in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { NODE_ENV: 'production', ...DELIVERY } });
  });
  afterAll(() => t.close());

  it('does not exist', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/api/dev/emails')).statusCode).toBe(404);
    expect((await client.get('/api/dev/emails/mfa_code')).statusCode).toBe(404);
  });
});
