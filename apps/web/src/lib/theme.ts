import createCache, { type EmotionCache } from '@emotion/cache';
import { createTheme, type Theme } from '@mui/material/styles';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import { BRAND_COLORS, type Brand } from '@hygie/domain';

const LATIN_FONTS = 'Roboto, "Noto Sans Arabic", "Helvetica Neue", Arial, sans-serif';
const ARABIC_FONTS = '"Noto Sans Arabic", Roboto, "Helvetica Neue", Arial, sans-serif';

/**
 * The brand's theme. White text goes on the primary colours only: the secondary greens are too
 * light for it (WCAG AA), so they get dark text and serve as accents.
 */
export function createAppTheme(brand: Brand, direction: 'ltr' | 'rtl'): Theme {
  const colors = BRAND_COLORS[brand];
  return createTheme({
    direction,
    palette: {
      primary: { main: colors.primary, contrastText: '#FFFFFF' },
      secondary: { main: colors.secondary, contrastText: 'rgba(0, 0, 0, 0.87)' },
      background: { default: '#FFFFFF' },
    },
    typography: {
      fontFamily: direction === 'rtl' ? ARABIC_FONTS : LATIN_FONTS,
      h1: { fontSize: '2rem', fontWeight: 500 },
    },
    components: {
      MuiButtonBase: {
        styleOverrides: {
          root: {
            '&.Mui-focusVisible': { outline: '3px solid currentColor', outlineOffset: 2 },
          },
        },
      },
      MuiButton: {
        styleOverrides: {
          root: ({ theme }) => ({
            textTransform: 'none',
            // Text and outlined buttons get a primary-tinted background on hover, on which the
            // Hygie blue falls just under AA (4.38:1): the text darkens with it.
            variants: (['text', 'outlined'] as const).map((variant) => ({
              props: { variant, color: 'primary' as const },
              style: { '&:hover': { color: theme.palette.primary.dark } },
            })),
          }),
          contained: ({ theme }) => ({
            '&.Mui-focusVisible': { outlineColor: theme.palette.primary.main },
          }),
        },
      },
      MuiLink: {
        styleOverrides: {
          root: {
            '&:focus-visible': { outline: '3px solid currentColor', outlineOffset: 2 },
          },
        },
      },
    },
  });
}

const caches: Partial<Record<'ltr' | 'rtl', EmotionCache>> = {};

/** Emotion caches: the RTL one mirrors every style (stylis-plugin-rtl). */
export function emotionCache(direction: 'ltr' | 'rtl'): EmotionCache {
  const existing = caches[direction];
  if (existing) return existing;
  const cache =
    direction === 'rtl'
      ? createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] })
      : createCache({ key: 'mui', stylisPlugins: [prefixer] });
  caches[direction] = cache;
  return cache;
}
