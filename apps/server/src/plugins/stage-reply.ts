import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { CookiePolicy } from './cookies.js';
import { issueXsrf } from './csrf.js';
import { sendError } from './error-handler.js';
import type { Progress } from '../modules/auth/service.js';

/**
 * Answers a stage-finishing call: the user when sign-in is complete (with the rotated session
 * cookie and a new anti-forgery token), else the next stage's error code.
 */
export function replyWithProgress(
  ctx: AppContext,
  cookies: CookiePolicy,
  request: FastifyRequest,
  reply: FastifyReply,
  progress: Progress,
) {
  if (!progress.complete) return sendError(request, reply, progress.stage, progress.data);
  if (progress.rotatedToken) {
    cookies.setSession(reply, progress.rotatedToken);
    issueXsrf(reply, cookies, ctx.secret, progress.rotatedToken);
  }
  if (progress.browserToken) cookies.setBrowser(reply, progress.browserToken);
  // A pending provider identity was linked (or refused) as the sign-in completed: used once.
  if (request.pendingLink) cookies.clearPendingLink(reply);
  return reply.send(progress.user);
}

/** What moving a session on needs to know of the request. */
export function requestMeta(request: FastifyRequest) {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    language: request.language,
    brand: request.brand,
    browserToken: request.browserToken,
    pendingLink: request.pendingLink,
  };
}
