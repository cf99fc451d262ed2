import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Language } from '@hygie/domain';
import { VALIDATION_MESSAGES } from '@hygie/domain';
import type { Probe } from '../attacks/operations.js';
import { probesOf } from '../attacks/operations.js';
import type { TestApp } from '../test/helpers.js';
import { ADMIN, createTestApp, DIALECTS, signIn, TestClient } from '../test/helpers.js';
import { validationText } from './validation-messages.js';

// Issue "validation messages never leak in English": every route of the API document is sent
// inputs of wrong types, unknown keys, over-long strings and missing fields, as an admin (whose
// session reaches every guarded route), in French and Arabic. Every refused field must carry a
// validation key (which the web translates) and its text in the request's language — never
// zod's English default.

const validationErrorSchema = z.object({
  code: z.literal('validation_error'),
  message: z.string(),
  data: z
    .object({
      fields: z.array(z.object({ path: z.string(), message: z.string(), text: z.unknown() })),
    })
    .optional(),
});

const LONG = 'x'.repeat(5_000);
const PARAM = '00000000-0000-4000-8000-000000000000';

interface Attempt {
  kind: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** The wrong inputs sent to one operation. */
function attemptsOf(probe: Probe): Attempt[] {
  const each = (value: unknown) => Object.fromEntries(probe.body.map((name) => [name, value]));
  const queryOf = (value: string) => Object.fromEntries(probe.query.map((name) => [name, value]));
  return [
    { kind: 'objects for every field', query: queryOf('{}'), body: each({ nested: true }) },
    { kind: 'numbers for every field', query: queryOf('-1.5'), body: each(12.5) },
    { kind: 'strings for every field', query: queryOf('not-a-value'), body: each('not-a-value') },
    { kind: 'over-long strings', query: queryOf(LONG), body: each(LONG) },
    { kind: 'lists for every field', query: {}, body: each(['x', 'y', 'z']) },
    { kind: 'an unknown key', query: { unexpectedKey: 'x' }, body: { unexpectedKey: 'x' } },
    { kind: 'nothing', query: {}, body: {} },
    { kind: 'no body', query: {}, body: undefined },
  ];
}

function urlOf(probe: Probe, query: Record<string, string>): string {
  let url = probe.path;
  for (const name of probe.pathParams) url = url.replace(`{${name}}`, PARAM);
  const search = new URLSearchParams(query).toString();
  return search ? `${url}?${search}` : url;
}

describe.each(DIALECTS)('validation refusals of every route on %s', (dialect) => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = new TestClient(t.app);
    expect((await signIn(t, admin, ADMIN.email, ADMIN.password)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it.each<Language>(['fr', 'ar'])(
    'names each refused field by a validation key with its text, in %s',
    async (language) => {
      // Signing out would end the session the walk runs in.
      const probes = probesOf(t.app.swagger()).filter((p) => p.path !== '/api/logout');
      expect(probes.length).toBeGreaterThan(60);
      const problems: string[] = [];
      const seen = new Set<string>();
      let refusals = 0;
      for (const probe of probes) {
        for (const attempt of attemptsOf(probe)) {
          const hasBody = !['GET', 'DELETE'].includes(probe.method);
          const res = await admin.request({
            method: probe.method,
            url: urlOf(probe, attempt.query),
            headers: { 'accept-language': language },
            ...(hasBody && attempt.body !== undefined ? { payload: attempt.body } : {}),
          });
          if (res.statusCode === 401) {
            // A route that ended the session (a sign-in stage): sign in again and go on.
            expect((await signIn(t, admin)).statusCode).toBe(200);
            continue;
          }
          if (res.statusCode !== 400) continue;
          const parsed = validationErrorSchema.safeParse(res.json());
          if (!parsed.success) continue;
          const at = `${probe.method} ${probe.path} (${attempt.kind})`;
          for (const field of parsed.data.data?.fields ?? []) {
            refusals += 1;
            const key = VALIDATION_MESSAGES.find((message) => message === field.message);
            if (!key) {
              problems.push(`${at} ${field.path}: ${field.message}`);
              continue;
            }
            seen.add(key);
            if (field.text !== validationText(key, language)) {
              problems.push(`${at} ${field.path}: text ${String(field.text)}`);
            }
            if (field.text === validationText(key, 'en')) {
              problems.push(`${at} ${field.path}: English text`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
      // The walk reached the schemas of the routes, with the kinds of refusal they make. (No route
      // refuses unknown keys: they are dropped; error-handler.test.ts covers a strict object.)
      expect(refusals).toBeGreaterThan(probes.length);
      expect([...seen].sort()).toEqual(
        expect.arrayContaining([
          'choice_invalid',
          'field_invalid',
          'field_required',
          'number_invalid',
          'too_long',
        ]),
      );
    },
    300_000,
  );
});
