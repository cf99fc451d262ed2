// Signs a bench admin in through the real stages: password, second factor by e-mail, terms. The
// bench runs the server as in production (no dev outbox, no test clock), so the e-mailed code is
// read back from the outbox table of the bench's own SQLite database (with node:sqlite).
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * Returns the Cookie header of a signed-in session (session + its anti-forgery cookie). `codeFrom`
 * is the SQLite data directory, or a function giving the last code sent to an address.
 */
export async function signInAdmin(baseUrl, codeFrom, admin) {
  const codeFor =
    typeof codeFrom === 'function' ? codeFrom : async (to) => lastCodeTo(codeFrom, to);
  const jar = new Map();
  const request = async (method, url, body) => {
    const xsrf = jar.get('XSRF-TOKEN');
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(xsrf ? { 'x-xsrf-token': xsrf } : {}),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair.split('=');
      jar.set(k, v);
    }
    return res;
  };
  await request('GET', '/api/health');
  let res = await request('POST', '/api/login', {
    username: admin.email,
    password: admin.password,
  });
  for (let step = 0; step < 4 && res.status !== 200; step++) {
    const { code } = await res.json();
    if (code === 'two_factor_authentication_required') {
      const sent = await request('POST', '/api/mfa/send', { provider: 'email' });
      if (sent.status !== 200) throw new Error(`mfa/send answered ${sent.status}`);
      res = await request('POST', '/api/mfa/verify', {
        provider: 'email',
        code: await codeFor(admin.email),
      });
    } else if (code === 'cgu_not_accepted') {
      // An acceptance names the exact text read: its version and hash.
      const { version, hash } = await (await request('GET', '/api/cgu')).json();
      res = await request('POST', '/api/cgu/accept', { version, hash });
    } else {
      throw new Error(
        `sign-in stopped at ${res.status} ${code}: ${JSON.stringify(await res.text())}`,
      );
    }
  }
  if ((await request('GET', '/api/me')).status !== 200) throw new Error('admin sign-in failed');
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

function lastCodeTo(dataDir, recipient) {
  const db = new DatabaseSync(path.join(dataDir, 'hygie.sqlite'), { readOnly: true });
  try {
    const row = db
      .prepare(
        "select params from outbox where template = 'mfa_code' and recipient = ? order by created_at desc limit 1",
      )
      .get(recipient);
    if (!row) throw new Error(`no second-factor code for ${recipient} in the outbox`);
    return JSON.parse(row.params).code;
  } finally {
    db.close();
  }
}
