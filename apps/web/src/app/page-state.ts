import * as z from 'zod/mini';
import { BRANDS, LANGUAGES, publicConfigSchema } from '@hygie/domain';
import { seedConfig } from '../lib/config';
import { ME_QUERY_KEY } from '../lib/current-user';
import type { AppServices } from '../lib/services';

/** The element of a page drawn by the server that tells the browser what it was drawn with. */
export const PAGE_STATE_ID = 'hy-page-state';

/**
 * What the server drew its page with (server-render.tsx): the browser takes the page over
 * (hydrates it) only when it would have drawn the same (boot.tsx), starting from the same data.
 * The server draws pages for visitors without a session only. zod/mini, like everything the login
 * page loads first (docs/web.md).
 */
export const pageStateSchema = z.object({
  language: z.enum(LANGUAGES),
  brand: z.enum(BRANDS),
  config: publicConfigSchema,
});
export type PageState = z.infer<typeof pageStateSchema>;

/** The state as the text of a `<script type="application/json">`: no `<` can close it. */
export function serialisePageState(state: PageState): string {
  return JSON.stringify(state).replaceAll('<', '\\u003c');
}

/** The state the server wrote in `doc`, if any and well formed. */
export function readPageState(doc: Document): PageState | null {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed = pageStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The client's data as the server had it: no session, and the server's configuration. */
export function seedPageData(
  services: Pick<AppServices, 'api' | 'config' | 'queryClient'>,
  state: PageState,
): void {
  services.queryClient.setQueryData(ME_QUERY_KEY, null);
  seedConfig(services, state.config);
}
