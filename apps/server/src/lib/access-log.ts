import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

/**
 * Fastify's request log lines, one per request: at `info`, when the answer has gone, the request
 * (method, redacted URL, client address: the logger's `req` serializer), its status and its time
 * in ms, under the request's id like every other line of it. Fastify writes two by default, an
 * "incoming request" line and a "request completed" one, and they cost a session check more
 * than its own work (docs/performance.md); the arrival is logged at `debug` only, for a request
 * that never answers. Errors are logged as Fastify does.
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
    request.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}
