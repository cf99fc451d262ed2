import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BRAND_COLORS, BRANDS } from '@hygie/domain';
import { createAppTheme, emotionCache } from './theme';

function luminance(color: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(color);
  const rgba = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(color);
  let channels: number[];
  if (match?.[1]) {
    channels = [0, 2, 4].map((i) => parseInt(match[1]!.slice(i, i + 2), 16));
  } else if (rgba) {
    // Alpha over white.
    const alpha = rgba[4] === undefined ? 1 : Number(rgba[4]);
    channels = [1, 2, 3].map((i) => Number(rgba[i]) * alpha + 255 * (1 - alpha));
  } else {
    throw new Error(`Unsupported colour ${color}`);
  }
  const [r = 0, g = 0, b = 0] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The part of the MuiButton root style override this test reads. */
const BUTTON_ROOT_STYLE = z.object({
  variants: z.array(
    z.object({
      props: z.object({ variant: z.string() }),
      style: z.object({ '&:hover': z.object({ color: z.string() }) }),
    }),
  ),
});

function contrast(a: string, b: string): number {
  const [first, second] = [luminance(a), luminance(b)];
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}

describe.each(BRANDS)('theme of %s', (brand) => {
  const theme = createAppTheme(brand, 'ltr');

  it('uses the brand colours of the spec', () => {
    expect(theme.palette.primary.main).toBe(BRAND_COLORS[brand].primary);
    expect(theme.palette.secondary.main).toBe(BRAND_COLORS[brand].secondary);
  });

  it('puts white text on the primary colour with AA contrast', () => {
    expect(theme.palette.primary.contrastText).toBe('#FFFFFF');
    expect(contrast(theme.palette.primary.main, '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
  });

  it('never puts white text on the secondary colour', () => {
    expect(contrast(theme.palette.secondary.main, '#FFFFFF')).toBeLessThan(4.5);
    expect(
      contrast(theme.palette.secondary.main, theme.palette.secondary.contrastText),
    ).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps text and outlined buttons readable on their hover background', () => {
    // MUI tints the hover background with the primary colour at the hover opacity.
    const tint = (channel: number) =>
      Math.round(255 - (255 - channel) * theme.palette.action.hoverOpacity);
    const main = theme.palette.primary.main;
    const [r, g, b] = [1, 3, 5].map((i) => tint(parseInt(main.slice(i, i + 2), 16)));
    const hover = `rgb(${r}, ${g}, ${b})`;
    const root = theme.components?.MuiButton?.styleOverrides?.root;
    if (typeof root !== 'function') throw new Error('MuiButton root override is not a function');
    const { variants } = BUTTON_ROOT_STYLE.parse(root({ theme, ownerState: {} }));
    expect(variants.map((variant) => variant.props.variant)).toEqual(['text', 'outlined']);
    for (const variant of variants) {
      expect(contrast(variant.style['&:hover'].color, hover)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps body and secondary text readable on the page background', () => {
    for (const background of ['#FFFFFF', theme.palette.background.default]) {
      expect(contrast(theme.palette.text.secondary, background)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(theme.palette.primary.main, background)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('right-to-left', () => {
  it('mirrors the theme and uses the RTL emotion cache for Arabic', () => {
    expect(createAppTheme('hygie', 'rtl').direction).toBe('rtl');
    expect(createAppTheme('hygie', 'rtl').typography.fontFamily).toMatch(/^"Noto Sans Arabic"/);
    expect(emotionCache('rtl').key).toBe('muirtl');
    expect(emotionCache('ltr').key).toBe('mui');
  });
});
