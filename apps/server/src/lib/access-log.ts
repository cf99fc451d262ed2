import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

/**
 * Fastify's request log lines, one per request: at `info`, when the answer has gone, the request
 * (method, redacted URL, client address: the logger's `req` serializer), its status and its time
 * in ms, under the request's id like every other line of it. Fastify writes two by default, an
 * "incoming request" line and a "request completed" one, and they cost a session check more
 * than its own work (docs/performance.md); the arrival is logged at `debug` only, for a request
 * that never answers. Errors are logged as Fastify does. A probe's answer that passes (routes with
 * `config.probe`: `/api/health`, `/api/ready`, `/metrics`) is logged at `debug` too.
 */
export class AccessLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    // pino's method of a level that is off does nothing.
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    // At `warn` or stricter no access line is written: none to build, no route options to read.
    if (!LINE_LEVELS.has(request.log.level)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    // A probe that passes says nothing an operator reads (a load balancer asks every few
    // seconds); one that fails (503 draining or database gone, 401 scrape) is a line like any.
    if (reply.statusCode < 400 && request.routeOptions.config.probe === true) {
      request.log.debug(line, 'request completed');
      return;
    }
    request.log.info(line, 'request completed');
  }
}

/** The levels at which an access line is written (at `info`, or at `debug` for a probe's). */
const LINE_LEVELS: ReadonlySet<string> = new Set(['trace', 'debug', 'info']);
