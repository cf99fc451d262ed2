import { createContext, useContext, useMemo, type ComponentType, type ReactNode } from 'react';
import { CacheProvider } from '@emotion/react';
import { ThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { useBrand } from './brand';
import { directionOf } from './language';
import { createAppTheme, emotionCache } from './theme';

const InsideMui = createContext(false);

function ThemedRoot({ children }: { children: ReactNode }) {
  const { brand } = useBrand();
  const { i18n } = useTranslation();
  const direction = directionOf(i18n.language);
  const theme = useMemo(() => createAppTheme(brand, direction), [brand, direction]);
  return (
    <InsideMui value>
      <CacheProvider value={emotionCache(direction)}>
        <ThemeProvider theme={theme}>{children}</ThemeProvider>
      </CacheProvider>
    </InsideMui>
  );
}

/**
 * MUI's theme and styling engine (the brand's palette, the direction's emotion cache) around the
 * screens that use MUI. It is loaded with them, never with the login page (routes.tsx
 * `lazyComponent`): the base styles (CssBaseline's, focus rings) are app/base.css. Nested (a page
 * in the main layout), it adds nothing.
 */
export function MuiRoot({ children }: { children: ReactNode }) {
  const inside = useContext(InsideMui);
  return inside ? children : <ThemedRoot>{children}</ThemedRoot>;
}

const innerComponents = new WeakMap<ComponentType, ComponentType>();

/** The component a `withMui` wrapper renders, or the component itself when it is not one. */
export function innerComponent(component: ComponentType): ComponentType {
  return innerComponents.get(component) ?? component;
}

/** A component rendered inside MuiRoot. */
export function withMui(Component: ComponentType): ComponentType {
  function WithMui() {
    return (
      <MuiRoot>
        <Component />
      </MuiRoot>
    );
  }
  WithMui.displayName = `WithMui(${Component.displayName ?? Component.name})`;
  innerComponents.set(WithMui, Component);
  return WithMui;
}
