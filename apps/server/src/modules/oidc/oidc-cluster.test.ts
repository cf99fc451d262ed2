import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DbHandle } from '../../db/connection.js';
import { openDatabase } from '../../db/connection.js';
import { systemClock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import { TEST_DATABASE_URL } from '../../test/helpers.js';
import { createUser } from '../users/service.js';
import { authorizationRequest, authorizeTo, Browser, freePorts } from './test-support.js';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');

async function waitReady(base: string, child: ChildProcess, output: () => string): Promise<void> {
  // Two servers compiling TypeScript at once: seconds idle, much longer on a loaded 2-core runner.
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output()}`);
    try {
      if ((await fetch(`${base}/api/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server not ready: ${output()}`);
}

// Several nodes share everything through PostgreSQL: codes, sessions, grants and signing keys.
describe.skipIf(!TEST_DATABASE_URL)('two server processes on one PostgreSQL', () => {
  const schema = `t_cluster_${randomToken(6)
    .replace(/[^a-zA-Z0-9]/g, '')
    .toLowerCase()}`;
  const nodes: { base: string; child: ChildProcess; output: () => string }[] = [];
  let db: DbHandle;
  let publicUrl = '';

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const ports = await freePorts(2);
    publicUrl = `http://127.0.0.1:${ports[0]}`;
    const databaseUrl = new URL(TEST_DATABASE_URL ?? '');
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    for (const port of ports) {
      let output = '';
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: publicUrl, // one issuer for the cluster, as behind a load balancer
          DATABASE_URL: databaseUrl.href,
          LOG_LEVEL: 'warn',
          SHUTDOWN_GRACE_MS: '0',
          WEB_DIST_DIR: path.join(ROOT, 'no-web-dist'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      nodes.push({ base: `http://127.0.0.1:${port}`, child, output: () => output });
    }
    // Started together: both migrate and create signing keys at once; the database arbitrates.
    await Promise.all(nodes.map((n) => waitReady(n.base, n.child, n.output)));
    db = openDatabase(
      { kind: 'postgres', url: TEST_DATABASE_URL ?? '', poolMax: 2 },
      { searchPath: schema },
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      nodes.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await db?.close();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('authorizes on one node and exchanges the code on the other', async () => {
    const [a, b] = nodes;
    if (!a || !b) throw new Error('two nodes expected');
    const jwks = await Promise.all(
      nodes.map(async (n) => (await fetch(`${n.base}/oidc/jwks`)).json()),
    );
    expect(jwks[0]).toEqual(jwks[1]);

    const now = Date.now();
    const userId = await createUser({ clock: systemClock }, db.db, {
      email: 'cluster@hygie.test',
      emailVerified: true,
      passwordHash: null,
      passwordChangedAt: now,
      profile: 'patient',
      status: 'active',
      firstName: 'Jeanne',
      lastName: 'Martin',
      language: 'fr',
    });
    // A complete portal session (what a finished sign-in leaves), and a platform.
    const token = randomToken();
    await db.db
      .insertInto('sessions')
      .values({
        id: newId(),
        token_hash: hashToken(token),
        user_id: userId,
        stage: 'complete',
        created_at: now,
        last_seen_at: now,
        idle_expires_at: now + 3_600_000,
        absolute_expires_at: now + 3_600_000,
        ip: null,
        user_agent: null,
        mfa_verified_at: now,
        trusted_device_id: null,
      })
      .execute();
    const secret = randomToken(32);
    const clientId = randomToken(18);
    const callback = 'http://127.0.0.1:9/cluster/callback';
    await db.db
      .insertInto('platforms')
      .values({
        id: newId(),
        client_id: clientId,
        client_secret_hash: hashToken(secret),
        name: 'Cluster',
        description: null,
        url: 'https://cluster.example',
        logo_url: null,
        redirect_uris: JSON.stringify([callback]),
        post_logout_redirect_uris: '[]',
        access_policy: 'open',
        first_party: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const viaA = await client.discovery(
      new URL(`${a.base}/oidc`),
      clientId,
      undefined,
      client.ClientSecretBasic(secret),
      { execute: [client.allowInsecureRequests] },
    );
    const start = await authorizationRequest(viaA, callback, 'openid email');
    const browser = new Browser(new Map([['hygie_session', token]]));
    const code = await authorizeTo(browser, publicUrl, start);

    // The same platform, its token and userinfo requests sent to node B.
    const metadata = z
      .object({ issuer: z.string() })
      .catchall(z.json())
      .parse(await (await fetch(`${a.base}/oidc/.well-known/openid-configuration`)).json());
    const viaB = new client.Configuration(
      {
        ...metadata,
        token_endpoint: `${b.base}/oidc/token`,
        userinfo_endpoint: `${b.base}/oidc/me`,
      },
      clientId,
      undefined,
      client.ClientSecretBasic(secret),
    );
    client.allowInsecureRequests(viaB);
    const tokens = await client.authorizationCodeGrant(viaB, code, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.claims()?.sub).toBe(userId);
    expect(await client.fetchUserInfo(viaB, tokens.access_token, userId)).toMatchObject({
      email: 'cluster@hygie.test',
    });
    // A replay on node A is refused: the code was consumed in the shared store.
    await expect(
      client.authorizationCodeGrant(viaA, code, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
