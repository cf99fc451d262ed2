import type { Plugin } from 'vite';
import { PRELOADED_FACES } from './src/app/fonts';

/**
 * The faces every screen starts with in the default language (Roboto, Latin, regular and medium:
 * body text, headings, buttons) are preloaded from index.html: the browser fetches them with the
 * first scripts instead of after the styles are applied, so the first render mostly has them and
 * no text is redrawn. The other faces (bold, other scripts, Arabic) come on use, by their
 * `unicode-range`. A page the server draws preloads its own language's (server-render.tsx).
 */
const PRELOADED = PRELOADED_FACES.fr;

export function fontPreload(): Plugin {
  return {
    name: 'hygie:font-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const fonts = Object.keys(context.bundle ?? {})
          .map((fileName) => `/${fileName}`)
          .filter((file) => PRELOADED.test(file))
          .sort();
        return fonts.map((href) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href, crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
