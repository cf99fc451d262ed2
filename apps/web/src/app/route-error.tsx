import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { browser } from '../lib/browser';
import { useDocumentTitle } from '../lib/document-title';
import { ChunkLoadError, reloadForChunkError } from './chunk-reload';

/** Root error boundary: reloads once for a missing chunk, else explains and offers a way home. */
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
    <Box
      component="main"
      id="main-content"
      tabIndex={-1}
      sx={{ maxWidth: 640, mx: 'auto', p: 4, outline: 'none' }}
    >
      <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t('common:routeError.description')}</Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => browser.reload()}>
          {t('common:routeError.reload')}
        </Button>
        <Button href="/">{t('common:actions.backHome')}</Button>
      </Box>
    </Box>
  );
}
