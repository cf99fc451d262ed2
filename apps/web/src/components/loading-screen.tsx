import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      id="main-content"
      tabIndex={-1}
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', outline: 'none' }}
    >
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress aria-hidden="true" />
        <span>{t('common:loading')}</span>
      </Box>
    </Box>
  );
}
