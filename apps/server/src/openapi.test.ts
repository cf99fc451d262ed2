import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES, statusOf } from '@hygie/domain';
import { operationIdOf, securityOf } from './plugins/openapi.js';
import type { TestApp } from './test/helpers.js';
import { createTestApp, TestClient } from './test/helpers.js';

// The contract of issue #14 "OpenAPI": every operation of /api/openapi.json has an operationId
// (unique), a tag, a security decision, a success response with its schema, its error statuses
// with the ErrorEnvelope, and a description on every response — never "Default Response".

const ENVELOPE = '#/components/schemas/ErrorEnvelope';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const responseSchema = z.object({
  description: z.string(),
  content: z
    .record(z.string(), z.object({ schema: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
});
const operationSchema = z.object({
  operationId: z.string().optional(),
  tags: z.array(z.string()).optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  responses: z.record(z.string(), responseSchema),
});
const documentSchema = z.object({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({
    schemas: z.record(z.string(), z.unknown()),
    securitySchemes: z.record(z.string(), z.unknown()),
  }),
});

/** What the document lacks, one line per problem: empty when it is complete. */
function problemsOf(raw: unknown): string[] {
  const doc = documentSchema.parse(raw);
  const problems: string[] = [];
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, rawOperation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const at = `${method.toUpperCase()} ${path}`;
      const parsed = operationSchema.safeParse(rawOperation);
      if (!parsed.success) {
        problems.push(`${at}: malformed operation (${parsed.error.message})`);
        continue;
      }
      const op = parsed.data;
      if (!op.operationId) problems.push(`${at}: no operationId`);
      else if (ids.has(op.operationId)) {
        problems.push(
          `${at}: operationId ${op.operationId} also used by ${ids.get(op.operationId)}`,
        );
      } else ids.set(op.operationId, at);
      if (!op.tags?.length) problems.push(`${at}: no tag`);
      if (!op.security) problems.push(`${at}: no security (declare config.auth on the route)`);
      for (const scheme of (op.security ?? []).flatMap(Object.keys)) {
        if (!(scheme in doc.components.securitySchemes)) {
          problems.push(`${at}: unknown security scheme ${scheme}`);
        }
      }
      const responses = Object.entries(op.responses);
      for (const [status, response] of responses) {
        if (!response.description.trim() || response.description === 'Default Response') {
          problems.push(`${at}: response ${status} has no description`);
        }
      }
      const success = responses.filter(([status]) => /^[23]\d\d$/.test(status));
      if (success.length === 0) problems.push(`${at}: no success response`);
      for (const [status, response] of success) {
        const noBody = status === '204' || status.startsWith('3');
        const schemas = Object.values(response.content ?? {}).filter((c) => c.schema);
        if (!noBody && schemas.length === 0) problems.push(`${at}: ${status} has no schema`);
      }
      const envelopes = responses.filter(
        ([status, response]) =>
          status.startsWith('4') &&
          response.content?.['application/json']?.schema?.$ref === ENVELOPE,
      );
      if (envelopes.length === 0) problems.push(`${at}: no 4xx response with the ErrorEnvelope`);
      for (const [status, response] of responses) {
        if (response.content?.['application/json']?.schema?.$ref !== ENVELOPE) continue;
        const codes = ERROR_CODES.filter((code) => String(statusOf(code)) === status);
        if (!codes.every((code) => response.description.includes(`\`${code}\``))) {
          problems.push(`${at}: ${status} does not list the catalogue's ${status} codes`);
        }
      }
    }
  }
  // Every reference resolves to a component.
  const refs = JSON.stringify(raw).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of new Set(refs)) {
    const name = /#\/components\/schemas\/([^"]+)"$/.exec(ref)?.[1];
    if (!name || !(name in doc.components.schemas)) problems.push(`unresolved ${ref}`);
  }
  return problems;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: unknown;
  beforeAll(async () => {
    // The document does not depend on the database: SQLite is enough. With METRICS_TOKEN set,
    // /metrics exists and is documented.
    t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: 'scraper-token-0123456789abcdef' },
    });
    const res = await new TestClient(t.app).get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    document = res.json();
  });
  afterAll(() => t.close());

  it('documents every operation completely', () => {
    expect(problemsOf(document)).toEqual([]);
    const { paths } = documentSchema.parse(document);
    expect(Object.keys(paths).length).toBeGreaterThan(60);
  });

  it('says how each operation is protected', () => {
    const { paths, components } = documentSchema.parse(document);
    expect(components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'hygie_session' },
      xsrfCookie: { type: 'apiKey', in: 'cookie', name: 'XSRF-TOKEN' },
      xsrfHeader: { type: 'apiKey', in: 'header', name: 'x-xsrf-token' },
      metricsToken: { type: 'http', scheme: 'bearer' },
    });
    const security = (path: string, method: string) =>
      operationSchema.parse(paths[path]?.[method]).security;
    expect(security('/api/health', 'get')).toEqual([]);
    expect(security('/api/login', 'post')).toEqual([{ xsrfCookie: [], xsrfHeader: [] }]);
    expect(security('/api/me', 'get')).toEqual([{ sessionCookie: [] }]);
    expect(security('/api/cgu', 'get')).toEqual([{}, { sessionCookie: [] }]);
    expect(security('/metrics', 'get')).toEqual([{ metricsToken: [] }]);
    // Every unsafe call carries the anti-forgery pair; every admin route needs the session.
    for (const [path, item] of Object.entries(paths)) {
      for (const method of Object.keys(item).filter((m) => METHODS.has(m))) {
        const alternatives = security(path, method) ?? [];
        if (!['get', 'head', 'options'].includes(method) && path !== '/metrics') {
          const guarded = alternatives.every((a) => 'xsrfCookie' in a && 'xsrfHeader' in a);
          expect({ path, method, guarded }).toEqual({ path, method, guarded: true });
          expect(alternatives.length).toBeGreaterThan(0);
        }
        if (path.startsWith('/api/admin/')) {
          expect(alternatives).toEqual([expect.objectContaining({ sessionCookie: [] })]);
        }
      }
    }
  });

  it('documents a session route only where an anonymous call is refused', async () => {
    // A route declared `session` that answers an anonymous caller would be documented as
    // protected while it is not. Routes whose input is checked first (400) cannot tell here.
    const { paths } = documentSchema.parse(document);
    const anonymous = new TestClient(t.app);
    let checked = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, raw] of Object.entries(item)) {
        const security = operationSchema.parse(raw).security ?? [];
        if (!security.every((alternative) => 'sessionCookie' in alternative)) continue;
        if (security.length === 0) continue;
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const res = await anonymous.request({
          method: method.toUpperCase(),
          url,
          ...(['get', 'delete'].includes(method) ? {} : { payload: {} }),
        });
        expect({ method, path, status: res.statusCode }).toEqual({
          method,
          path,
          status: expect.toBeOneOf([400, 401]),
        });
        if (res.statusCode === 401) checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('leaves the OIDC provider out (oidc-provider serves it, not Fastify schemas)', () => {
    const { paths } = documentSchema.parse(document);
    expect(Object.keys(paths).filter((p) => p.startsWith('/oidc'))).toEqual([]);
  });

  it('flags an incomplete operation', () => {
    const broken = {
      openapi: '3.0.3',
      components: { schemas: {}, securitySchemes: {} },
      paths: {
        '/api/a': {
          get: { responses: { 200: { description: 'Default Response' } } },
          post: {
            operationId: 'x',
            tags: ['t'],
            security: [{ nope: [] }],
            responses: { 201: { description: 'Created.' } },
          },
        },
        '/api/b': {
          get: {
            operationId: 'x',
            tags: ['t'],
            security: [],
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: {} } } },
              400: {
                description: 'An ErrorEnvelope.',
                content: { 'application/json': { schema: { $ref: ENVELOPE } } },
              },
            },
          },
        },
      },
    };
    expect(problemsOf(broken)).toEqual([
      'GET /api/a: no operationId',
      'GET /api/a: no tag',
      'GET /api/a: no security (declare config.auth on the route)',
      'GET /api/a: response 200 has no description',
      'GET /api/a: 200 has no schema',
      'GET /api/a: no 4xx response with the ErrorEnvelope',
      'POST /api/a: unknown security scheme nope',
      'POST /api/a: 201 has no schema',
      'POST /api/a: no 4xx response with the ErrorEnvelope',
      'GET /api/b: operationId x also used by POST /api/a',
      "GET /api/b: 400 does not list the catalogue's 400 codes",
      `unresolved "$ref":"${ENVELOPE}"`,
    ]);
  });

  it('derives stable operation ids and security', () => {
    expect(operationIdOf('POST', '/api/admin/users/:id/end-sessions')).toBe(
      'postAdminUsersByIdEndSessions',
    );
    expect(operationIdOf('GET', '/metrics')).toBe('getMetrics');
    expect(securityOf('public', 'GET')).toEqual([]);
    expect(securityOf('optional', 'POST')).toEqual([
      { xsrfCookie: [], xsrfHeader: [] },
      { sessionCookie: [], xsrfCookie: [], xsrfHeader: [] },
    ]);
  });
});
