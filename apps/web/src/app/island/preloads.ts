// No imports: the build configuration reads it too (route-preload.ts).

/**
 * The mark of the whole client's preloads in the built index.html (`data-client="whole"`): a page
 * the server draws drops them (server-render.tsx), since its island fetches the whole client at
 * the page's first interaction (docs/web.md).
 */
export const WHOLE_CLIENT_PRELOAD = { name: 'data-client', value: 'whole' } as const;

/**
 * The id of the built index.html's list of each language's first-translations chunk (a
 * `<script type="application/json">`, `{"fr":"/assets/locales-fr-….js",…}`: inert, not a script):
 * a page the server draws preloads its language's in its place (server-render.tsx), which the
 * island would otherwise ask for only once it runs.
 */
export const FIRST_TRANSLATIONS_ID = 'hy-first-translations';
