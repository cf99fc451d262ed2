import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import '@fontsource/noto-sans-arabic/400.css';
import '@fontsource/noto-sans-arabic/500.css';
import '@fontsource/noto-sans-arabic/700.css';
import './base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { asLanguage } from '@hygie/domain';
import { resolveBrandFromWindow } from '../lib/brand';
import { configQueryOptions } from '../lib/config';
import { queueEarlyErrors } from '../lib/error-reporting';
import { meQueryOptions } from '../lib/current-user';
import { detectLanguageFromWindow } from '../lib/language';
import { App } from './app';
import { createI18nInstance, FIRST_NAMESPACES, initI18n } from './i18n';
import { routes } from './routes';
import { createAppServices } from './services';

async function start(): Promise<void> {
  // Sentry loads after the first paint (app.tsx): what fails before is kept for it.
  queueEarlyErrors();
  const brand = resolveBrandFromWindow();
  const language = detectLanguageFromWindow();
  const i18n = createI18nInstance();
  const services = createAppServices({
    brand,
    getLanguage: () => asLanguage(i18n.language) ?? language,
  });
  // Ask who the visitor is while the translations load.
  void services.queryClient.prefetchQuery(meQueryOptions(services.api, services.accountState));
  void services.queryClient.prefetchQuery(configQueryOptions(services));
  // The translations are asked for, then the router is made, which starts loading the page's lazy
  // chunks (layout, page): both load side by side before the first render.
  const translations = initI18n(i18n, language, FIRST_NAMESPACES);
  const router = createBrowserRouter(routes);
  await translations;

  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <App services={services} i18n={i18n} router={router} />
    </StrictMode>,
  );
}

void start();
