import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import { RELEASE, type RenderPage } from '@hygie/domain';
import type { Config } from './config.js';
import { letterSettings } from './messaging/templates.js';
import type { Lifecycle } from './lifecycle.js';
import type { AppContext } from './context.js';
import type { DbHandle } from './db/connection.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import type { Clock } from './lib/clock.js';
import { MovableClock, systemClock } from './lib/clock.js';
import { createPasswordHasher } from './security/passwords.js';
import { hashPool } from './security/hash-pool.js';
import { checkDataKeys, ensureAdmin, knownDataKeyIds, loadSecret } from './bootstrap.js';
import { installDataKeys } from './security/field-crypto.js';
import { resolveDataKeys } from './security/data-keys.js';
import { sealClearPersonFields } from './modules/users/service.js';
import { sealClearSettings } from './modules/settings/service.js';
import { sealClearArtefacts } from './modules/oidc/service.js';
import { reclaimReplacedValues } from './db/connection.js';
import { OutboxDispatcher } from './messaging/dispatcher.js';
import type { Transport } from './messaging/transports/types.js';
import { smtpTransport } from './messaging/transports/smtp.js';
import { smsHttpTransport } from './messaging/transports/sms-http.js';
import { devOutboxTransport } from './messaging/transports/dev-outbox.js';
import { requestContext } from './plugins/request-context.js';
import { errorHandler, sendFrameworkError } from './plugins/error-handler.js';
import { securityHeaders } from './plugins/security-headers.js';
import { cookiePolicy } from './plugins/cookies.js';
import { registerWebClient } from './plugins/web-client.js';
import { publicConfigOf } from './modules/public-config/service.js';
import { responseSerializer } from './plugins/serializer.js';
import { csrfProtection } from './plugins/csrf.js';
import { ADMIN_PREFIX, openapiTransform, securitySchemes } from './plugins/openapi.js';
import { sessionGuard } from './plugins/authenticate.js';
import { authRoutes } from './modules/auth/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { publicConfigRoutes } from './modules/public-config/routes.js';
import { emailPreviewRoutes } from './modules/dev-outbox/preview.js';
import { devOutboxRoutes } from './modules/dev-outbox/routes.js';
import type { RouteDeps } from './modules/route-deps.js';
import { registrationRoutes } from './modules/registration/routes.js';
import { verificationRoutes } from './modules/verification/routes.js';
import { mfaRoutes } from './modules/mfa/routes.js';
import { consentRoutes } from './modules/consent/routes.js';
import { passwordRoutes } from './modules/password/routes.js';
import { firstLoginRoutes } from './modules/first-login/routes.js';
import { lockRoutes } from './modules/lock/routes.js';
import { adminAccountsRoutes } from './modules/admin/accounts-routes.js';
import { requireAdmin } from './modules/admin/guard.js';
import { OIDC_PREFIX } from './modules/oidc/provider.js';
import { AccessLogController } from './lib/access-log.js';
import { redactUrl } from './lib/redact.js';
import { inputGuard } from './plugins/input-guard.js';
import { adminSettingsRoutes } from './modules/admin/settings-routes.js';
import { adminUserRoutes } from './modules/admin/user-routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { scheduleMaintenance } from './modules/maintenance/job.js';
import { adminUsersRoutes } from './modules/admin/users-routes.js';
import { profileRoutes } from './modules/profile/routes.js';
import { accountRoutes } from './modules/account/routes.js';
import { deviceRoutes } from './modules/devices/routes.js';
import { selfServiceRoutes } from './modules/self-service/routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { legalRoutes } from './modules/legal/routes.js';
import { platformRoutes } from './modules/platforms/routes.js';
import { Metrics } from './lib/metrics.js';
import { metricsPlugin } from './plugins/metrics.js';
import { requestIdOf, runInRequestScope } from './lib/request-scope.js';
import { outboxStats } from './messaging/outbox.js';
import { PlatformLogoutSender } from './modules/oidc/backchannel.js';
import { oidcRoutes } from './modules/oidc/routes.js';
import { messageQueueRoutes } from './modules/message-queue/routes.js';
import { biometricsRoutes } from './modules/biometrics/routes.js';
import { identityProviderRoutes } from './modules/identity-providers/routes.js';
import { stepUpRoutes } from './modules/step-up/routes.js';
import { totpRoutes } from './modules/totp/routes.js';
import { recoveryCodesRoutes } from './modules/recovery-codes/routes.js';
import { assuranceRoutes } from './modules/assurance/routes.js';
import { testClockRoutes } from './modules/test-clock/routes.js';

export interface AppDeps {
  clock?: Clock;
  /** An already-open database (tests use one per suite); otherwise the configured one is opened. */
  database?: DbHandle;
  /** `false` silences the log (tests); a stream receives its lines instead of stdout. */
  logger?: false | LogOutput;
  /** Transports override (tests); otherwise chosen from the configuration. */
  transports?: { email: Transport; sms: Transport };
  /** The drawer of the server-drawn pages (tests); otherwise the one built beside the client. */
  renderPage?: RenderPage | null;
}

export interface LogOutput {
  stream: { write(line: string): void };
}

/** One entry of the route table: the method and the path pattern the router matches. */
export interface RouteEntry {
  method: string;
  url: string;
}

export interface BuiltApp {
  app: FastifyInstance;
  /** Every route registered, as the router knows it (the attacker suite walks it). */
  routes: readonly RouteEntry[];
  ctx: AppContext;
  dispatcher: OutboxDispatcher;
  lifecycle: Lifecycle;
}

function chooseTransports(config: Config): { email: Transport; sms: Transport } {
  const dev = devOutboxTransport((line) => process.stdout.write(`${line}\n`));
  return {
    email: config.smtp ? smtpTransport(config.smtp) : dev,
    sms: config.sms ? smsHttpTransport(config.sms) : dev,
  };
}

/** The server's log: JSON lines, with secrets kept out (cookies, tokens, query values). */
function loggerOptions(config: Config, output?: LogOutput): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(output ? { stream: output.stream } : {}),
    // A request is logged by its method, URL and client address only: never its headers (its
    // cookies, bearer token and anti-forgery token), and of its query string only the names, since
    // query strings carry codes, link tokens and personal data (attacks/logs.test.ts).
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}

function trustNearest(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Migrates the database and assembles what the services need (also used by the CLI). */
export async function createContext(
  config: Config,
  database: DbHandle,
  clock: Clock = systemClock,
  log: (line: string) => void = () => {},
): Promise<AppContext> {
  await migrateToLatest(database);
  const { keyring, note } = resolveDataKeys(config, {
    sealedWith: await knownDataKeyIds(database.db),
  });
  if (note) log(note);
  const { rebuildingIndex } = await checkDataKeys(database.db, keyring, clock.now());
  if (rebuildingIndex) {
    log(
      'data keys: the INS index is still under a former DATA_INDEX_KEY: run data:rotate-key --index to rebuild it under the first one',
    );
  }
  installDataKeys(keyring);
  // An upgraded installation's clear values are sealed before anything reads them: the health
  // identifiers, the secret settings and the OIDC artefacts, content unchanged (no session or
  // token lost). Then the replaced clear values are wiped from the database's free pages.
  const replaced: string[] = [];
  const sealed = await sealClearPersonFields(database.db);
  if (sealed > 0) {
    replaced.push('users');
    log(`data keys: sealed the health identifiers of ${sealed} accounts stored in clear`);
  }
  const settings = await sealClearSettings(database.db);
  if (settings > 0) {
    replaced.push('settings');
    log(`data keys: sealed ${settings} secret settings stored in clear`);
  }
  const artefacts = await sealClearArtefacts(database.db);
  if (artefacts > 0) {
    replaced.push('oidc_store');
    log(`data keys: sealed ${artefacts} OIDC tokens, codes and sessions stored in clear`);
  }
  if (replaced.length > 0) await reclaimReplacedValues(database, replaced);
  const secret = await loadSecret(database.db, config.sessionSecret, clock.now());
  const hashing = hashPool(config.hashing.concurrency, config.hashing.queueLimit);
  const passwords = await createPasswordHasher(config.argon2, hashing);
  const metrics = new Metrics();
  metrics.attach({
    outbox: () => outboxStats(database.db, clock),
    hashing: () => hashing.stats,
    ...(database.poolStats ? { pool: database.poolStats } : {}),
    ...(database.walStats ? { wal: database.walStats } : {}),
  });
  return { config, db: database.db, database, clock, secret, passwords, metrics };
}

/** The composition root: database, services, plugins and routes. `server.ts` listens. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<BuiltApp> {
  // A server started for the browser suite runs on a clock the suite can move (config refuses it
  // outside NODE_ENV=test); its endpoint is registered below only then.
  const movable = config.testClock ? new MovableClock(deps.clock ?? systemClock) : undefined;
  const clock = movable ?? deps.clock ?? systemClock;
  const database = deps.database ?? openDatabase(config.database, { checkpointInBackground: true });
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(config, deps.logger),
    // A hop count trusts the N nearest proxies (proxy-addr's own rule; Fastify's types take it as a function).
    trustProxy:
      typeof config.trustProxy === 'number' ? trustNearest(config.trustProxy) : config.trustProxy,
    bodyLimit: config.bodyLimit,
    return503OnClosing: true,
    frameworkErrors: (error, request, reply) => {
      void sendFrameworkError(error, request, reply);
    },
    routerOptions: { maxParamLength: 200 },
    // The proxy's X-Request-Id when well formed, else a UUID: in the response, every log line of
    // the request (`requestId`) and every audit event it causes.
    requestIdHeader: false,
    logController: new AccessLogController({ requestIdLogLabel: 'requestId' }),
    genReqId: (req) => requestIdOf(req.headers['x-request-id']),
  });
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    const agent = request.headers['user-agent'];
    runInRequestScope(
      { requestId: request.id, userAgent: agent ?? null, client: request.ip },
      done,
    );
  });
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  try {
    const ctx = await createContext(config, database, clock, (line) => app.log.info(line));
    await ensureAdmin(ctx, app.log);
    app.log.info(
      config.devOutbox
        ? 'dev outbox: served at /api/dev/outbox with every code and link in clear (no SMTP_URL or SMS_GATEWAY_URL configured, NODE_ENV=%s)'
        : 'dev outbox: not served (NODE_ENV=%s, or a real SMTP or SMS transport is configured)',
      config.env,
    );

    const transports = deps.transports ?? chooseTransports(config);
    // Back-channel logout notices go out through the provider, once the OIDC routes built it.
    const platformLogout = new PlatformLogoutSender();
    const dispatcher = new OutboxDispatcher({
      logout: platformLogout,
      db: database.db,
      dialect: database.dialect,
      clock,
      log: app.log,
      transports,
      letter: letterSettings(config),
      onFailure: (channel) => ctx.metrics.outboxFailures.inc({ channel }),
      ...config.outbox,
    });

    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(responseSerializer({ crossCheck: config.env === 'test' }));
    // Only JSON is accepted: anything else is 415 (security.md "Requests").
    app.removeContentTypeParser('text/plain');

    const cookies = cookiePolicy(config);
    await app.register(cookie);
    await app.register(requestContext, {
      browserCookie: cookies.browserCookie,
      pendingLinkCookie: cookies.pendingLinkCookie,
    });
    await app.register(errorHandler);
    await app.register(inputGuard);
    await app.register(securityHeaders, { hsts: config.hsts, sentryDsn: config.sentry.dsn });
    await app.register(csrfProtection, {
      secret: ctx.secret,
      cookies,
      // The provider's endpoints authenticate their clients themselves (platform back-channel).
      exemptPrefix: `${OIDC_PREFIX}/`,
    });

    await app.register(swagger, {
      openapi: {
        info: { title: 'Hygie API', version: RELEASE },
        servers: [{ url: config.publicUrl.origin }],
        components: { securitySchemes: securitySchemes(cookies) },
      },
      // Each route's operationId, security, error statuses and response descriptions
      // (docs/api.md "OpenAPI"), on top of the zod schemas' translation.
      transform: openapiTransform,
      // Schemas with an id (ErrorEnvelope) become components referenced by every route.
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Its own CSP (hashes of its inline bootstrap) replaces ours: it must forbid framing too.
      transformStaticCSP: (header) => `${header}; frame-ancestors 'none'`,
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

    const requireSession = sessionGuard(ctx, cookies);
    // Admin routes refuse non-admins before anything else (even before the body is read).
    // Decided on the route the router matched, never on the raw URL (`/%61pi/admin/…` is routed).
    // A hook of the admin routes alone, added as each is declared: the other routes do not run it.
    const adminGate = async (request: FastifyRequest) => {
      await requireAdmin(requireSession, request);
    };
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith(ADMIN_PREFIX)) {
        route.onRequest = [adminGate, ...[route.onRequest ?? []].flat()];
      }
    });
    const lifecycle: Lifecycle = { draining: false };
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (lifecycle.draining) reply.header('connection', 'close');
      done(null, payload);
    });
    await app.register(metricsPlugin, { metrics: ctx.metrics, token: config.metricsToken });
    await app.register(healthRoutes, { database, lifecycle });
    await app.register(publicConfigRoutes, { config });
    await app.register(authRoutes, { ctx, cookies, requireSession });
    if (config.devOutbox)
      await app.register(devOutboxRoutes, { db: database.db, letter: letterSettings(config) });
    if (!config.production) {
      await app.register(emailPreviewRoutes, { letter: letterSettings(config) });
    }
    if (movable) await app.register(testClockRoutes, { clock: movable });
    const routeDeps: RouteDeps = {
      ctx,
      cookies,
      requireSession,
      requireAdmin: (request) => requireAdmin(requireSession, request),
      nudgeOutbox: () => dispatcher.nudge(),
    };
    for (const routes of [
      registrationRoutes,
      verificationRoutes,
      mfaRoutes,
      consentRoutes,
      passwordRoutes,
      firstLoginRoutes,
      lockRoutes,
      adminAccountsRoutes,
      adminSettingsRoutes,
      adminUsersRoutes,
      adminUserRoutes,
      auditRoutes,
      messageQueueRoutes,
      profileRoutes,
      accountRoutes,
      deviceRoutes,
      selfServiceRoutes,
      dashboardRoutes,
      legalRoutes,
      biometricsRoutes,
      identityProviderRoutes,
      stepUpRoutes,
      totpRoutes,
      recoveryCodesRoutes,
      assuranceRoutes,
      platformRoutes,
    ]) {
      await app.register(routes, routeDeps);
    }
    await app.register(oidcRoutes, { ...routeDeps, platformLogout });

    await registerWebClient(app, {
      distDir: config.webDistDir,
      ...(deps.renderPage !== undefined && { renderPage: deps.renderPage }),
      publicConfig: publicConfigOf(config),
      sessionCookie: cookies.sessionCookie,
    });

    const stopMaintenance = scheduleMaintenance(ctx, app.log);
    app.addHook('onClose', async () => {
      stopMaintenance();
      await dispatcher.stop();
      await Promise.all([transports.email.close?.(), transports.sms.close?.()]);
      await database.close();
    });
    return { app, routes, ctx, dispatcher, lifecycle };
  } catch (err) {
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }
}
