import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorData, FieldError, Language } from '@hygie/domain';
import { DEFAULT_LANGUAGE, isValidationMessage, parseErrorData, statusOf } from '@hygie/domain';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.js';
import { isAppError } from '../lib/app-error.js';
import { errorMessage } from '../i18n/error-messages.js';
import { validationText } from '../i18n/validation-messages.js';
import { queryLanguage } from './request-context.js';

/** Sends the error envelope `{ code, message, data? }` in the request's language. */
export function sendError<C extends ErrorCode>(
  request: FastifyRequest,
  reply: FastifyReply,
  code: C,
  data?: ErrorData<C>,
): FastifyReply {
  // request.language is set in preValidation; errors raised earlier (body parsing) read ?l= here.
  const language = request.language ?? queryLanguage(request) ?? DEFAULT_LANGUAGE;
  const body: Record<string, unknown> = { code, message: errorMessage(code, language, data) };
  if (data && Object.keys(data).length > 0) body.data = withFieldTexts(code, data, language);
  return reply.code(statusOf(code)).type('application/json; charset=utf-8').send(body);
}

/** A validation_error's fields each get `text`, their message in the request's language. */
function withFieldTexts(code: ErrorCode, data: unknown, language: Language): unknown {
  const fields = code === 'validation_error' ? parseErrorData(code, data)?.fields : undefined;
  if (!fields) return data;
  return {
    fields: fields.map((field) => {
      const message = isValidationMessage(field.message) ? field.message : 'field_invalid';
      return { path: field.path, message, text: validationText(message, language) };
    }),
  };
}

/** The path of a zod issue as the envelope gives it: dotted, empty for the whole input. */
function dotted(instancePath: string): string {
  return instancePath.replace(/^\//, '').replace(/\//g, '.');
}

/**
 * The fields of a schema refusal. Each message is a validation key (the domain's error map gives
 * one to every issue; anything else reads as field_invalid), and an unknown key of a strict
 * object is named itself rather than its object.
 */
function fieldsOf(
  validation: readonly {
    instancePath: string;
    keyword: string;
    message?: string;
    params: unknown;
  }[],
): FieldError[] {
  return validation.flatMap((v) => {
    const path = dotted(v.instancePath);
    const message = isValidationMessage(v.message) ? v.message : 'field_invalid';
    const keys = v.keyword === 'unrecognized_keys' ? unknownKeysOf(v.params) : [];
    if (keys.length === 0) return [{ path, message }];
    return keys.map((key) => ({ path: path ? `${path}.${key}` : key, message }));
  });
}

function unknownKeysOf(params: unknown): string[] {
  if (typeof params !== 'object' || params === null || !('keys' in params)) return [];
  const { keys } = params;
  return Array.isArray(keys) ? keys.filter((key) => typeof key === 'string') : [];
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_error',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_BAD_URL: 'validation_error',
  FST_ERR_ASYNC_CONSTRAINT: 'validation_error',
  // A path segment longer than any identifier names nothing.
  FST_ERR_MAX_PARAM_LENGTH: 'not_found',
};

function codeOf(error: FastifyError): ErrorCode {
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (mapped) return mapped;
  if (error instanceof SyntaxError) return 'invalid_json';
  const status = error.statusCode ?? 500;
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'too_many_requests';
  if (status >= 400 && status < 500) return 'validation_error';
  return 'unknown_error';
}

/**
 * Errors the router raises before any route runs (a malformed URL, an over-long path parameter):
 * the same envelope as every other refusal (Fastify's option `frameworkErrors`).
 */
export function sendFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  return sendError(request, reply, codeOf(error));
}

/** One error handler: expected failures keep their code, anything else is a 500 without internals. */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      if (error.headers) void reply.headers(error.headers);
      return sendError(request, reply, error.code, error.data);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendError(request, reply, 'validation_error', { fields: fieldsOf(error.validation) });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down, restarting, unreachable or too slow: nothing was changed (the
      // transaction did not commit), and the client may try again shortly.
      request.log.warn({ err: error }, 'database unavailable');
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(request, reply, 'service_unavailable');
    }
    const code = codeOf(error);
    if (code === 'unknown_error') request.log.error({ err: error }, 'unhandled error');
    else request.log.info({ code, reason: error.message }, 'request refused');
    return sendError(request, reply, code);
  });
});
