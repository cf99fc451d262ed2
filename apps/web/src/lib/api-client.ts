import {
  accountStateOf,
  isErrorCode,
  parseErrorData,
  BRANDING_HEADER_NAME,
  LANGUAGE_QUERY_PARAM,
  XSRF_COOKIE_NAME,
  XSRF_HEADER_NAME,
  type AccountState,
  type Brand,
  type ErrorCode,
  type ErrorData,
  type Language,
  type RequiredLevel,
} from '@hygie/domain';
import * as z from 'zod/mini';
import { readCookie } from './cookies';

/**
 * A failed call: `code` is the catalogue code (also the translation key) when the server sent one.
 * Its `data` is read through `dataOf(code)`, which checks it against the catalogue's type for that
 * code (packages/domain error-data.ts): no screen reads an unchecked field.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** The server's own (localised) message, used when the code has no translation. */
  readonly serverMessage: string | undefined;
  readonly #data: unknown;

  constructor(init: {
    status: number;
    code?: string | undefined;
    message?: string | undefined;
    data?: unknown;
  }) {
    super(init.message ?? init.code ?? `HTTP ${init.status}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = isErrorCode(init.code) ? init.code : undefined;
    this.#data = init.data;
    this.serverMessage = init.message;
  }

  /** The response's `data` when its code is `code` and it has that code's shape. */
  dataOf<C extends ErrorCode>(code: C): ErrorData<C> | undefined {
    return this.code === code ? parseErrorData(code, this.#data) : undefined;
  }
}

/** The error's data when it is an ApiError with `code`. */
export function errorDataOf<C extends ErrorCode>(
  error: unknown,
  code: C,
): ErrorData<C> | undefined {
  return error instanceof ApiError ? error.dataOf(code) : undefined;
}

export interface ApiClientOptions {
  /** Prefix of every call; the API lives on the same origin. */
  baseUrl?: string;
  getLanguage: () => Language;
  /** The brand sent in `x-branding`, or null to send none. */
  getBrand: () => Brand | null;
  /** Called with the account state implied by any coded error response (spec §4). */
  onAccountState: (state: AccountState, data: unknown) => void;
  /**
   * Called when the account area answers that the session's level is below its minimum
   * (`403 assurance_level_required`): the guard sends the user to the step-up screen.
   */
  onAssuranceRequired?: (level: RequiredLevel) => void;
  fetch?: typeof fetch;
  readCookie?: (name: string) => string | null;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The calls of the API. An answer is typed only by the schema that checked it: without a schema
 * it is `unknown`.
 */
export interface ApiClient {
  request<T>(
    method: string,
    path: string,
    options: RequestOptions & { schema: z.core.$ZodType<T> },
  ): Promise<T>;
  request(method: string, path: string, options?: RequestOptions): Promise<unknown>;
  get<T>(path: string, schema: z.core.$ZodType<T>, signal?: AbortSignal): Promise<T>;
  get(path: string): Promise<unknown>;
  post<T>(path: string, body: unknown, schema: z.core.$ZodType<T>): Promise<T>;
  post(path: string, body?: unknown): Promise<unknown>;
  /** The anti-forgery cookie name comes from GET /api/config. */
  setXsrfCookieName(name: string): void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    const payload: unknown = JSON.parse(text);
    return payload;
  } catch {
    return undefined;
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? '/api';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const cookie = options.readCookie ?? ((name: string) => readCookie(name));
  let xsrfCookieName = XSRF_COOKIE_NAME;

  function buildUrl(path: string, query: Record<string, string> | undefined): string {
    const [pathname = '', search = ''] = `${baseUrl}${path}`.split('?');
    const params = new URLSearchParams(search);
    for (const [key, value] of Object.entries(query ?? {})) params.set(key, value);
    params.set(LANGUAGE_QUERY_PARAM, options.getLanguage());
    return `${pathname}?${params.toString()}`;
  }

  function request<T>(
    method: string,
    path: string,
    init: RequestOptions & { schema: z.core.$ZodType<T> },
  ): Promise<T>;
  function request(method: string, path: string, init?: RequestOptions): Promise<unknown>;
  async function request<T>(
    method: string,
    path: string,
    init: RequestOptions & { schema?: z.core.$ZodType<T> } = {},
  ): Promise<unknown> {
    const verb = method.toUpperCase();
    const headers: Record<string, string> = { accept: 'application/json' };
    const brand = options.getBrand();
    if (brand) headers[BRANDING_HEADER_NAME] = brand;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (!SAFE_METHODS.has(verb)) {
      const token = cookie(xsrfCookieName);
      if (token) headers[XSRF_HEADER_NAME] = token;
    }

    let response: Response;
    try {
      response = await doFetch(buildUrl(path, init.query), {
        method: verb,
        headers,
        credentials: 'include',
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: init.signal ?? null,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      // Network failure: no code, the UI shows the generic message.
      throw new ApiError({ status: 0 });
    }

    const payload = await readJson(response);
    if (!response.ok) {
      const code = isRecord(payload) && typeof payload.code === 'string' ? payload.code : undefined;
      const message =
        isRecord(payload) && typeof payload.message === 'string' ? payload.message : undefined;
      const data = isRecord(payload) && isRecord(payload.data) ? payload.data : undefined;
      const state = accountStateOf(code);
      if (state) options.onAccountState(state, data);
      const required =
        code === 'assurance_level_required'
          ? parseErrorData('assurance_level_required', data)
          : undefined;
      if (required) options.onAssuranceRequired?.(required.level);
      throw new ApiError({ status: response.status, code, message, data });
    }
    if (!init.schema) return payload;
    const parsed = z.safeParse(init.schema, payload);
    if (!parsed.success) throw new ApiError({ status: response.status, code: 'unknown_error' });
    return parsed.data;
  }

  function get<T>(path: string, schema: z.core.$ZodType<T>, signal?: AbortSignal): Promise<T>;
  function get(path: string): Promise<unknown>;
  function get<T>(
    path: string,
    schema?: z.core.$ZodType<T>,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const init = signal ? { signal } : {};
    return schema ? request('GET', path, { ...init, schema }) : request('GET', path, init);
  }

  function post<T>(path: string, body: unknown, schema: z.core.$ZodType<T>): Promise<T>;
  function post(path: string, body?: unknown): Promise<unknown>;
  function post<T>(path: string, body?: unknown, schema?: z.core.$ZodType<T>): Promise<unknown> {
    return schema
      ? request('POST', path, { body: body ?? {}, schema })
      : request('POST', path, { body: body ?? {} });
  }

  return {
    request,
    get,
    post,
    setXsrfCookieName(name) {
      xsrfCookieName = name;
    },
  };
}
