import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { CONFIG_EXIT_CODE, runPrimary } from './cluster.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Several processes (WORKERS): this one forks and watches them (cluster.ts); each runs this file.
  if (config.workers > 1 && cluster.isPrimary) {
    runPrimary(config);
    return;
  }
  const { app, ctx, dispatcher, lifecycle } = await buildApp(config);
  if (cluster.isWorker) ctx.metrics.joinCluster();
  dispatcher.start();
  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl.href, database: config.database.kind },
    `Hygie ${config.database.kind === 'sqlite' ? `(SQLite in ${config.dataDir})` : '(PostgreSQL)'}`,
  );

  // Graceful shutdown: drain (readiness 503, connections closed after their response) for the
  // grace period so the load balancer moves traffic away, then stop accepting, finish in-flight
  // requests, stop the outbox and close the pools.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    lifecycle.draining = true;
    const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + 25_000);
    force.unref();
    const grace = new Promise((resolve) => setTimeout(resolve, config.shutdownGraceMs));
    grace
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // A worker whose primary is gone (killed outright) drains and exits rather than serve on alone.
  if (cluster.isWorker) process.on('disconnect', () => shutdown('disconnect'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    // A configuration the operator must fix: their lines, no stack, exit 2 (a usage error).
    process.stderr.write(`${err.message}\n`);
    process.exit(CONFIG_EXIT_CODE);
  } else {
    process.stderr.write(
      `Hygie failed to start: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
  }
  process.exit(1);
});
