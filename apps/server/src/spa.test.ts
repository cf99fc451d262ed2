import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageRenderRequest, RenderPage } from '@hygie/domain';
import { builtPageRenderer, withTimeLimit } from './plugins/web-client.js';
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

// The build writes .br and .gz copies beside each text file (apps/web/vite.config.ts); the server
// picks one by Accept-Encoding and caches the hashed assets for good.
describe('the web client’s files: compression and caching', () => {
  let t: TestApp;
  let dist: string;
  const script = `export const greeting = ${JSON.stringify('bonjour '.repeat(200))};\n`;
  const page = `<!DOCTYPE html><title>Hygie</title>${'<!-- padding -->'.repeat(50)}`;

  function writeWithCopies(file: string, content: string): void {
    fs.writeFileSync(file, content);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
  }

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-spa-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    writeWithCopies(path.join(dist, 'index.html'), page);
    writeWithCopies(path.join(dist, 'assets', 'login-page-C5zpFfZR.js'), script);
    // A file the build left without copies (a font: already compressed).
    fs.writeFileSync(path.join(dist, 'assets', 'roboto-latin-400-normal-Dk2kL3f0.woff2'), 'wOF2');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const asset = '/assets/login-page-C5zpFfZR.js';

  it('sends brotli to a browser that accepts it, preferred to gzip', async () => {
    const res = await t.app.inject({
      url: asset,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip when only gzip is accepted', async () => {
    const res = await t.app.inject({ url: asset, headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the file as is to a client that accepts no compression', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const res = await t.app.inject({ url: asset, headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body).toBe(script);
    }
  });

  it('caches the hashed assets for a year, immutable, whatever the encoding', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await t.app.inject({ url: asset, headers: { 'accept-encoding': encoding } });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const font = await t.app.inject({
      url: '/assets/roboto-latin-400-normal-Dk2kL3f0.woff2',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-encoding']).toBeUndefined();
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('has index.html revalidated, compressed too, on every page path', async () => {
    for (const url of ['/security/login', '/index.html', '/profile?tab=1']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(page);
    }
    const plain = await t.app.inject('/security/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
  });

  it('revalidates the files outside /assets/ (their names carry no hash)', async () => {
    const res = await t.app.inject('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers unknown API paths with the JSON 404, as before', async () => {
    for (const url of ['/api/nothing-here', '/oidc/nothing-here', '/metrics']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
  });
});

// A visitor without a session asking for the login page gets it drawn in the HTML (the web
// client's renderer, apps/web/src/app/server-render.tsx): a stand-in renderer here, which says
// what it was asked; the real one runs in the web suite and the browser suite.
describe('the pages the server draws', () => {
  let t: TestApp;
  let dist: string;
  const asked: PageRenderRequest[] = [];
  let failing = false;
  const lines: string[] = [];
  const template =
    '<!DOCTYPE html><html lang="fr"><title>Hygie</title><div id="root"></div></html>';
  const stylesheet = 'body{margin:0}';

  const renderPage: RenderPage = (request) => {
    asked.push(request);
    if (failing) return Promise.reject(new Error('renderer down'));
    if (!request.url.startsWith('/security/login')) return Promise.resolve(null);
    return Promise.resolve(
      request.template.replace('<div id="root"></div>', () => {
        return `<div id="root">drawn in ${request.language} for ${request.url} $'</div>`;
      }),
    );
  };

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-spa-'));
    fs.writeFileSync(path.join(dist, 'index.html'), template);
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'index-C5zpFfZR.css'), stylesheet);
    fs.writeFileSync(path.join(dist, 'assets', 'index-C5zpFfZR.js'), 'export {};');
    t = await createTestApp('sqlite', {
      env: { WEB_DIST_DIR: dist, LOG_LEVEL: 'error' },
      deps: { renderPage, logger: { stream: { write: (line) => lines.push(line) } } },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });
  beforeEach(() => {
    asked.length = 0;
    failing = false;
  });

  it('draws the login page in the language asked, with the configuration GET /api/config gives', async () => {
    const res = await t.app.inject({
      url: '/security/login',
      headers: { 'accept-language': 'ar-MA,fr;q=0.5' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toBe('accept-encoding, accept-language, cookie');
    expect(res.body).toContain(`drawn in ar for /security/login $'`);
    const config = await t.app.inject('/api/config');
    expect(asked).toEqual([
      {
        url: '/security/login',
        hostname: 'localhost',
        language: 'ar',
        config: config.json(),
        template,
        // The built style sheets, for the page to carry: read once, at start.
        stylesheets: { '/assets/index-C5zpFfZR.css': stylesheet },
      },
    ]);
    // `?l=` (a platform's ui_locales passed through) wins over the browser's languages.
    const requested = await t.app.inject({
      url: '/security/login?l=en',
      headers: { 'accept-language': 'ar' },
    });
    expect(requested.body).toContain('drawn in en for /security/login?l=en');
  });

  it('sends it compressed as the browser accepts: brotli, else gzip, else as is', async () => {
    const br = await t.app.inject({
      url: '/security/login?x=1',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('drawn in fr');
    const gzip = await t.app.inject({
      url: '/security/login?x=1',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain('drawn in fr');
    const plain = await t.app.inject({
      url: '/security/login?x=1',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('drawn in fr');
  });

  it('draws a page once for its first requests together, and once for the hosts of one brand', async () => {
    const drawn = await Promise.all(
      ['a.example', 'b.example', 'a.example', 'telecare.example', 'TeleCare.example'].map((host) =>
        t.app.inject({
          url: '/security/login-together',
          headers: { host, 'accept-language': 'en' },
        }),
      ),
    );
    expect(drawn.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // One draw per brand the hosts name; a page is the same for every host of its brand.
    expect(asked.map((request) => [request.url, request.hostname])).toEqual([
      ['/security/login-together', 'a.example'],
      ['/security/login-together', 'telecare.example'],
    ]);
    // Later requests are served what was drawn, whatever host of that brand they name (the
    // stand-in draws every address under /security/login; this one is this test's alone).
    await t.app.inject({
      url: '/security/login-together',
      headers: { host: 'c.example', 'accept-language': 'en' },
    });
    expect(asked).toHaveLength(2);
  });

  it('draws an address without a query once per language and brand; one with a query each time', async () => {
    for (let round = 0; round < 3; round++) {
      await t.app.inject({ url: '/security/login', headers: { 'accept-language': 'en' } });
      await t.app.inject('/security/login?username=a');
    }
    expect(asked.map((request) => request.url)).toEqual([
      '/security/login',
      '/security/login?username=a',
      '/security/login?username=a',
      '/security/login?username=a',
    ]);
  });

  it('leaves the pages of a visitor with a session to the browser', async () => {
    const res = await t.app.inject({
      url: '/security/login',
      cookies: { hygie_session: 'anything' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(template);
    expect(asked).toEqual([]);
  });

  it('serves index.html for the pages it does not draw', async () => {
    const res = await t.app.inject('/profile');
    expect(res.body).toBe(template);
    // Whether a page is drawn depends on these: a shared cache keeps the answers apart.
    expect(res.headers.vary).toBe('accept-encoding, accept-language, cookie');
    expect(asked.map((request) => request.url)).toEqual(['/profile']);
  });

  it('serves index.html, and logs why, when the renderer fails', async () => {
    failing = true;
    const res = await t.app.inject('/security/login?username=b');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(template);
    expect(lines.some((line) => line.includes('the page could not be drawn'))).toBe(true);
  });
});

describe('the time limit of a draw', () => {
  const request: PageRenderRequest = {
    url: '/security/login',
    hostname: 'localhost',
    language: 'fr',
    config: {
      release: 'test',
      sentryDsn: null,
      sentryEnvironment: 'test',
      xsrfCookieName: 'XSRF-TOKEN',
      contactEmail: 'contact@hygie.test',
      sessionWarningSeconds: 60,
      identityProviders: [],
    },
    template: '',
    stylesheets: {},
  };

  it('refuses a draw that does not answer in time, and passes on one that does', async () => {
    const hanging = withTimeLimit(() => new Promise<string | null>(() => {}), 20);
    await expect(hanging(request)).rejects.toThrow(/not drawn within 20 ms/);
    const quick = withTimeLimit(() => Promise.resolve('<p>drawn</p>'), 1_000);
    await expect(quick(request)).resolves.toBe('<p>drawn</p>');
    const failing = withTimeLimit(() => Promise.reject(new Error('renderer down')), 1_000);
    await expect(failing(request)).rejects.toThrow('renderer down');
  });
});

describe('the renderer built beside the web client', () => {
  it('is none when the build has none, and refuses a module without renderPage', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-web-'));
    try {
      const dist = path.join(web, 'dist');
      fs.mkdirSync(dist);
      expect(await builtPageRenderer(dist)).toBeNull();
      fs.mkdirSync(path.join(web, 'dist-ssr'));
      fs.writeFileSync(path.join(web, 'dist-ssr', 'server-render.js'), 'export const other = 1;\n');
      await expect(builtPageRenderer(dist)).rejects.toThrow(/exports no renderPage/);
    } finally {
      fs.rmSync(web, { recursive: true, force: true });
    }
  });
});
