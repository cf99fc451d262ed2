// Mock Pro Santé Connect and FranceConnect for the browser suite: two real OpenID providers
// (oidc-provider) sending the claims and `acr` the real ones send (their scopes, and the claims of
// the identities the tests register, are written once in fixtures/mock-identities.mjs, which the
// server tests' mocks use too). playwright.config.ts starts
// this process before the portal, on ports chosen once per run, and points the portal's
// PSC_* / FRANCECONNECT_* variables at it.
//
// At each provider, the sign-in page is a form: the browser types who signs in (a subject the test
// registered) and the level (`acr`), or cancels (the interaction ends in `error=access_denied`).
// Signing out at the provider (RP-initiated logout, `end_session_endpoint`) ends its session and
// sends the browser back to the portal's post-logout URI, `/api/idp/<kind>/logged-out`.
// A small control API, for the tests only, under /__mock/:
//   POST /__mock/accounts  {"sub": "…", "claims": {…}}  a subject and its claims (userinfo, ID token)
//   POST /__mock/down      {"down": true|false}        the provider stops answering (connections
//                                                      are closed at once) or answers again
//   GET  /__mock/ready                                  200 once listening
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';
import { confirmedLogoutPage, LEVELS, SCOPES } from './fixtures/mock-identities.mjs';

const PORTAL = process.env.PORTAL_URL ?? 'http://localhost:3210';
const CLIENT_SECRET =
  process.env.MOCK_CLIENT_SECRET ?? 'a-client-secret-of-the-portal-at-the-mock-provider';

const KINDS = {
  psc: {
    port: Number(process.env.MOCK_PSC_PORT ?? 4810),
    title: 'Pro Santé Connect (mock)',
    scopes: SCOPES.psc,
  },
  franceconnect: {
    port: Number(process.env.MOCK_FRANCECONNECT_PORT ?? 4811),
    title: 'FranceConnect (mock)',
    scopes: SCOPES.franceconnect,
  },
};

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function readBody(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** The provider's sign-in page: who signs in, at which level, or cancel. */
function signInPage(kind, uid) {
  const options = LEVELS.map((level) => `<option value="${level}">${level}</option>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(KINDS[kind].title)}</title></head>
<body><main>
<h1>${escapeHtml(KINDS[kind].title)}</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
  <p><label for="subject">Subject</label> <input id="subject" name="subject" required autofocus></p>
  <p><label for="acr">Level (acr)</label> <select id="acr" name="acr">${options}</select></p>
  <p><button type="submit" data-testid="mock-sign-in">Sign in</button></p>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort">
  <p><button type="submit" data-testid="mock-cancel">Cancel</button></p>
</form>
</main></body></html>`;
}

async function startProvider(kind) {
  const { port, scopes } = KINDS[kind];
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `hygie-${kind}`;
  const accounts = new Map();
  let down = false;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomUUID(),
    use: 'sig',
    alg: 'RS256',
  };
  const claims = { openid: ['sub'], ...scopes };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PORTAL}/api/idp/${kind}/callback`],
        post_logout_redirect_uris: [`${PORTAL}/api/idp/${kind}/logged-out`],
        token_endpoint_auth_method: 'client_secret_post',
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...(accounts.get(sub) ?? {}) }),
    }),
    claims,
    scopes: Object.keys(claims),
    acrValues: LEVELS,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // RP-initiated logout: with the portal's id_token_hint the real providers sign out without
      // asking; this page confirms at once (the form posts itself; a button without script).
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = confirmedLogoutPage(KINDS[kind].title, form);
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: [`mock-${kind}-cookie-key`] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  const handle = provider.callback();

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname.startsWith('/__mock/')) {
        if (url.pathname === '/__mock/ready') {
          res.end('ready');
        } else if (url.pathname === '/__mock/accounts' && req.method === 'POST') {
          const { sub, claims: chosen } = JSON.parse(await readBody(req));
          accounts.set(String(sub), chosen ?? {});
          res.end('ok');
        } else if (url.pathname === '/__mock/down' && req.method === 'POST') {
          down = Boolean(JSON.parse(await readBody(req)).down);
          res.end('ok');
        } else {
          res.statusCode = 404;
          res.end();
        }
        return;
      }
      // Down: the connection is closed without an answer (the portal's calls fail at once).
      if (down) {
        req.socket.destroy();
        return;
      }
      // Every sign-in asks who signs in: the browser's earlier session at this provider (single
      // sign-on) is not looked at, so a test always meets the form.
      if (url.pathname === '/auth') delete req.headers.cookie;
      const match = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(url.pathname);
      if (match) {
        const [, uid, action] = match;
        const details = await provider.interactionDetails(req, res);
        if (!action) {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(signInPage(kind, uid));
          return;
        }
        if (action === 'abort') {
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'The user cancelled',
          });
          return;
        }
        const form = new URLSearchParams(await readBody(req));
        const subject = form.get('subject') ?? '';
        const acr = LEVELS.includes(form.get('acr')) ? form.get('acr') : 'eidas1';
        const grant = new provider.Grant({ accountId: subject, clientId });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(
          req,
          res,
          {
            login: { accountId: subject, acr, amr: ['mfa'], remember: false },
            consent: { grantId: await grant.save() },
          },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      await handle(req, res);
    })().catch((err) => {
      console.error(`${kind} mock provider:`, err);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const servers = await Promise.all(Object.keys(KINDS).map((kind) => startProvider(kind)));
const stop = () => {
  for (const server of servers) server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
