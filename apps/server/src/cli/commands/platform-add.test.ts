import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection.js';
import { hashToken } from '../../lib/tokens.js';
import { runCli } from '../runner.js';

async function run(dataDir: string, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://portal.example.fr' },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}

describe('platform:add', () => {
  it('registers a platform, prints its client id and secret once, stores only the hash', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-cli-'));
    try {
      const added = await run(
        dataDir,
        'platform:add',
        '--name',
        'Agenda',
        '--url',
        'https://agenda.example',
        '--redirect-uri',
        'https://agenda.example/callback',
        '--redirect-uri',
        'https://agenda.example/callback2',
        '--post-logout-uri',
        'https://agenda.example/',
        '--backchannel-logout-uri',
        'https://agenda.example/oidc/backchannel',
        '--policy',
        'on_request',
      );
      expect(added.stderr).toBe('');
      expect(added.status).toBe(0);
      const clientId = /^client_id: (\S+)$/m.exec(added.stdout)?.[1];
      const secret = /^client_secret: (\S+)$/m.exec(added.stdout)?.[1];
      expect(added.stdout).toContain(
        'discovery: https://portal.example.fr/oidc/.well-known/openid-configuration',
      );

      const publicClient = await run(
        dataDir,
        'platform:add',
        '--name',
        'App',
        '--url',
        'https://app.example',
        '--redirect-uri',
        'http://127.0.0.1:8080/cb',
        '--public',
      );
      expect(publicClient.stdout).toContain('client_secret: (none: public client, PKCE)');

      const refused = await run(
        dataDir,
        'platform:add',
        '--name',
        'Bad',
        '--url',
        'https://bad.example',
        '--redirect-uri',
        'http://bad.example/cb',
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(
        /^--redirect-uri "http:\/\/bad\.example\/cb": .+; run cli platform:add --help\n$/,
      );
      expect((await run(dataDir, 'platform:add', '--name', 'X')).stderr).toBe(
        '--url is required; --redirect-uri is required; run cli platform:add --help\n',
      );
      const json = await run(
        dataDir,
        'platform:add',
        '--name',
        'Portail',
        '--url',
        'https://portail.example',
        '--redirect-uri',
        'https://portail.example/cb',
        '--third-party',
        '--json',
      );
      expect(JSON.parse(json.stdout)).toEqual({
        platformId: expect.any(String),
        clientId: expect.any(String),
        clientSecret: expect.any(String),
        discovery: 'https://portal.example.fr/oidc/.well-known/openid-configuration',
        // No --assurance: the platform takes a session at whatever level it has.
        minimumLevel: null,
      });

      const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'hygie.sqlite') });
      const row = await db.db
        .selectFrom('platforms')
        .selectAll()
        .where('client_id', '=', clientId ?? '')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        name: 'Agenda',
        access_policy: 'on_request',
        client_secret_hash: hashToken(secret ?? ''),
        redirect_uris: JSON.stringify([
          'https://agenda.example/callback',
          'https://agenda.example/callback2',
        ]),
        post_logout_redirect_uris: JSON.stringify(['https://agenda.example/']),
        backchannel_logout_uri: 'https://agenda.example/oidc/backchannel',
      });
      const audit = await db.db
        .selectFrom('audit_events')
        .select(['actor_id'])
        .where('action', '=', 'platform_created')
        .execute();
      expect(audit).toEqual([{ actor_id: null }, { actor_id: null }, { actor_id: null }]);
      await db.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
