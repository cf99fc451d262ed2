import * as z from 'zod/mini';
import { BRANDS, LANGUAGES, publicConfigSchema } from '@hygie/domain';
import { PAGE_STATE_ID } from './island/state';

export { PAGE_STATE_ID } from './island/state';

/**
 * What the server drew its page with (server-render.tsx): the login page's island reads what it
 * shows of it by hand (island/state.ts); the whole client reads it all with this schema and starts
 * from the same data (boot.tsx). The server draws pages for visitors without a session only.
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
