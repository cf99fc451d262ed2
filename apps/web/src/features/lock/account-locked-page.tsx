import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormStatus } from '../../components/form-error';
import { Page } from '../../components/page';
import { usePublicConfig } from '../../lib/config';
import { isolate } from '../../lib/error-message';

/** The account is locked and every session ended; how to get it unlocked. */
export default function AccountLockedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const config = usePublicConfig();
  const username = params.get('username')?.trim() ?? '';
  const contactEmail = config?.contactEmail;

  return (
    <Page title={t('security:accountLocked.title')}>
      <Box data-testid="account-locked">
        {/* A lock is protection, not a success: a warning, never a green check. */}
        <FormStatus severity="warning" data-testid="account-locked-status">
          {username
            ? t('security:accountLocked.lockedNamed', { username: isolate(username) })
            : t('security:accountLocked.locked')}
        </FormStatus>
        <Typography sx={{ mb: 2 }}>{t('security:accountLocked.disconnected')}</Typography>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {t('security:accountLocked.helpTitle')}
        </Typography>
        <Typography sx={{ mb: 1 }}>{t('security:accountLocked.help')}</Typography>
        {contactEmail && (
          <Typography>
            {t('security:accountLocked.contact')}{' '}
            <Link href={`mailto:${contactEmail}`} dir="ltr">
              {contactEmail}
            </Link>
          </Typography>
        )}
      </Box>
    </Page>
  );
}
