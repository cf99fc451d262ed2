import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type FakeHandler = (request: FakeRequest) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function apiError(status: number, code: string, data?: Record<string, unknown>): Response {
  return json(status, { code, message: `server: ${code}`, ...(data && { data }) });
}

/**
 * A fetch double answering "METHOD /api/path" keys; unknown calls get 404 not_found. `calls`
 * records every request.
 */
export function fakeFetch(handlers: Record<string, FakeHandler>) {
  const calls: FakeRequest[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost:3000');
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const method = (init?.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const request: FakeRequest = { method, url, headers, body, credentials: init?.credentials };
    calls.push(request);
    const handler = handlers[`${method} ${url.pathname}`];
    return handler ? handler(request) : apiError(404, 'not_found');
  });
  return { fetch, calls };
}
