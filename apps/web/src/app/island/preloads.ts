// No imports: the build configuration reads it too (route-preload.ts).

/**
 * The mark of the whole client's preloads in the built index.html (`data-client="whole"`): a page
 * the server draws drops them (server-render.tsx), since its island fetches the whole client at
 * the page's first interaction (docs/web.md).
 */
export const WHOLE_CLIENT_PRELOAD = { name: 'data-client', value: 'whole' } as const;
