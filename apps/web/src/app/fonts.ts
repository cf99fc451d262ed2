// Which of the built font files (fontsource: `/assets/<family>-<subset>-<weight>-normal-<hash>`)
// a page in each language uses and preloads; no imports but a type, so that the build
// configuration reads them too (font-preload.ts).
import type { Language } from '@hygie/domain';

/** Roboto's Latin faces (French, English: accents, ligatures, typographic quotes). */
const LATIN_FACES = /\/roboto-latin(?:-ext)?-\d+-normal-/;
/**
 * Noto Sans Arabic's Arabic and Latin faces: in Arabic, the page's Latin text (the brand, an
 * address) is set in its Latin faces, which come first in the font stack (base.css).
 */
const ARABIC_FACES = /\/noto-sans-arabic-(?:arabic|latin|latin-ext)-\d+-normal-/;

/**
 * The faces a page drawn in `language` carries in its `<style>` (server-render.tsx): the others
 * (the other script's, Roboto's Cyrillic, Greek, Vietnamese, symbols) come with the client's
 * style sheet, after the first paint.
 */
export const PAGE_FACES: Readonly<Record<Language, RegExp>> = {
  fr: LATIN_FACES,
  en: LATIN_FACES,
  ar: ARABIC_FACES,
};

/**
 * The files a page in `language` preloads: its script's regular and medium faces (body text,
 * headings, buttons); bold and the other subsets come on use, by their `unicode-range`.
 */
export const PRELOADED_FACES: Readonly<Record<Language, RegExp>> = {
  fr: /\/roboto-latin-(?:400|500)-normal-[\w-]+\.woff2$/,
  en: /\/roboto-latin-(?:400|500)-normal-[\w-]+\.woff2$/,
  ar: /\/noto-sans-arabic-arabic-(?:400|500)-normal-[\w-]+\.woff2$/,
};
