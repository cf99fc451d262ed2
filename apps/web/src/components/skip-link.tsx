import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

/** First focusable element of a layout: jumps over the navigation to `#main-content`. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Box
      component="a"
      href="#main-content"
      sx={(theme) => ({
        position: 'absolute',
        left: 8, // mirrored to `right` in Arabic by the RTL emotion cache
        top: -100,
        zIndex: theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 500,
        borderRadius: 1,
        boxShadow: 3,
        '&:focus': { top: 8, outline: `3px solid ${theme.palette.primary.main}` },
      })}
    >
      {t('common:skipToContent')}
    </Box>
  );
}
