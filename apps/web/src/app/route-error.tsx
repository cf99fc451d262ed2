import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { buttonClasses, PlainButton } from '../components/plain/button';
import { browser } from '../lib/browser';
import { useDocumentTitle } from '../lib/document-title';
import { ChunkLoadError, reloadForChunkError } from './chunk-reload';

/**
 * Root error boundary: reloads once for a missing chunk, else explains and offers a way home. Plain
 * elements (app/base.css): it may stand where no MUI screen has loaded.
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const isChunkError = error instanceof ChunkLoadError;
  const [reloading] = useState(() => isChunkError && reloadForChunkError(window.location.href));
  const title = t('common:routeError.title');
  useDocumentTitle(title);

  useEffect(() => {
    if (!isChunkError) console.error(error);
  }, [error, isChunkError]);

  if (reloading) return null;
  return (
    <main id="main-content" tabIndex={-1} className="hy-route-error">
      <h1 className="hy-page-title">{title}</h1>
      <p className="hy-text-intro">{t('common:routeError.description')}</p>
      <div className="hy-row">
        <PlainButton variant="contained" onClick={() => browser.reload()}>
          {t('common:routeError.reload')}
        </PlainButton>
        <a href="/" className={buttonClasses({})}>
          {t('common:actions.backHome')}
        </a>
      </div>
    </main>
  );
}
