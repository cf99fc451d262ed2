import type { Plugin, Rolldown } from 'vite';
import { FIRST_TRANSLATIONS_ID, WHOLE_CLIENT_PRELOAD } from './src/app/island/preloads';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/**
 * The login page's island (src/app/island/start.tsx): what a page the server drew runs first. The
 * other preloads are marked (WHOLE_CLIENT_PRELOAD): the server drops them
 * from the pages it draws (server-render.tsx), whose island fetches the whole client at the first
 * interaction.
 */
const ISLAND_ENTRY = /\/src\/app\/island\/start\.tsx$/;

/**
 * The client's start (app/boot.tsx, which the entry imports once a page the server drew is
 * painted) and the sign-in page's lazy chunks (its layout and page, and what they import) are
 * preloaded from index.html (`<link rel="modulepreload">`): most first visits open the login page,
 * whose chunks the router otherwise asks for only once the entry has run, a second wave of
 * requests before the first render. Other first pages fetch these few kilobytes for nothing
 * (docs/web.md).
 */
const PRELOADED_ENTRIES = [
  /\/src\/app\/boot\.tsx$/,
  /\/src\/app\/layouts\/security-layout\.tsx$/,
  /\/src\/features\/auth\/login-page\.tsx$/,
];

function isChunk(output: OutputBundle[string] | undefined): output is OutputChunk {
  return output?.type === 'chunk';
}

/** The chunks `fileName` imports statically, itself included, depth first. */
function staticGraph(
  bundle: OutputBundle,
  fileName: string,
  seen = new Set<string>(),
): Set<string> {
  const chunk = bundle[fileName];
  if (seen.has(fileName) || !isChunk(chunk)) return seen;
  seen.add(fileName);
  for (const imported of chunk.imports) staticGraph(bundle, imported, seen);
  return seen;
}

export function routePreload(): Plugin {
  return {
    name: 'hygie:route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter(isChunk);
        // The entry's own graph is preloaded by Vite already.
        const entryGraph = new Set<string>();
        for (const chunk of chunks.filter((output) => output.isEntry)) {
          staticGraph(bundle, chunk.fileName, entryGraph);
        }
        // The module's own chunk, or the group's that holds it (vite.config.ts).
        const chunkOf = (pattern: RegExp) => {
          const chunk = chunks.find((output) => output.moduleIds.some((id) => pattern.test(id)));
          if (!chunk) throw new Error(`route-preload: no chunk for ${pattern.source}`);
          return chunk.fileName;
        };
        const island = staticGraph(bundle, chunkOf(ISLAND_ENTRY));
        const wanted = new Set<string>(island);
        for (const pattern of PRELOADED_ENTRIES) staticGraph(bundle, chunkOf(pattern), wanted);
        // Each language's first translations (a code-splitting group, vite.config.ts): listed for
        // the pages the server draws, which preload their language's (FIRST_TRANSLATIONS_ID).
        const firstTranslations = Object.fromEntries(
          chunks
            .flatMap((chunk) => {
              const language = /^locales-(\w+)$/.exec(chunk.name)?.[1];
              return language ? [[language, `/${chunk.fileName}`] as const] : [];
            })
            .sort(([a], [b]) => a.localeCompare(b)),
        );
        const list = {
          tag: 'script',
          attrs: { type: 'application/json', id: FIRST_TRANSLATIONS_ID },
          children: JSON.stringify(firstTranslations),
          injectTo: 'head' as const,
        };
        const preloads = [...wanted]
          .filter((fileName) => !entryGraph.has(fileName))
          .sort()
          .map((fileName) => ({
            tag: 'link',
            attrs: {
              rel: 'modulepreload',
              crossorigin: '',
              href: `/${fileName}`,
              ...(!island.has(fileName) && {
                [WHOLE_CLIENT_PRELOAD.name]: WHOLE_CLIENT_PRELOAD.value,
              }),
            },
            injectTo: 'head' as const,
          }));
        return [...preloads, list];
      },
    },
  };
}
