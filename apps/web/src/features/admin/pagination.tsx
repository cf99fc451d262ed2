import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { useKeysetPages } from '../../lib/keyset-pages';

/** "Previous · Page n · Next" over keyset pages; nothing when there is only one page. */
export function Pagination({
  pages,
  nextCursor,
  testId,
}: {
  pages: ReturnType<typeof useKeysetPages>;
  nextCursor: string | null | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  if (pages.page === 1 && !nextCursor) return null;
  return (
    <Box
      component="nav"
      aria-label={t('admin:pagination.label')}
      sx={{ display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'flex-end' }}
    >
      <Button
        onClick={pages.previous}
        disabled={pages.page <= 1}
        data-testid={`${testId}-previous`}
      >
        {t('admin:pagination.previous')}
      </Button>
      <Typography>{t('admin:pagination.page', { page: pages.page })}</Typography>
      <Button
        onClick={() => nextCursor && pages.next(nextCursor)}
        disabled={!nextCursor}
        data-testid={`${testId}-next`}
      >
        {t('admin:pagination.next')}
      </Button>
    </Box>
  );
}
