import type { Config } from './config.js';
import type { Db, DbHandle } from './db/connection.js';
import type { Clock } from './lib/clock.js';
import type { Metrics } from './lib/metrics.js';
import type { PasswordHasher } from './security/passwords.js';

/** What every module's service receives: the composition root builds it once. */
export interface AppContext {
  config: Config;
  db: Db;
  database: DbHandle;
  clock: Clock;
  /** Server secret for HMACs (anti-forgery tokens); from SESSION_SECRET or generated and stored once. */
  secret: string;
  passwords: PasswordHasher;
  /** The app's Prometheus metrics (served at /metrics when METRICS_TOKEN is set). */
  metrics: Metrics;
}
