import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LEVEL_ADJECTIVES, LEVEL_EXPLANATIONS, useAssurance } from '../../lib/assurance';
import { errorMessage } from '../../lib/error-message';

/**
 * The current session's level of assurance in plain words (docs/oidc.md): what it rests on, and
 * how to raise it — a passkey or the authenticator app for substantial, a CPS card or
 * FranceConnect+ for high.
 */
export function CurrentLevel() {
  const { t, i18n } = useTranslation();
  const assurance = useAssurance();
  const data = assurance.data;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="current-level-title"
      sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
      data-testid="current-level"
    >
      <Typography id="current-level-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('self-service:assurance.title')}
      </Typography>
      {assurance.isError && (
        <Alert severity="error" role="alert" data-testid="form-error">
          {errorMessage(i18n, assurance.error)}
        </Alert>
      )}
      {assurance.isPending && <Typography role="status">{t('common:loading')}</Typography>}
      {data && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography
            variant="subtitle1"
            sx={{ fontWeight: 600 }}
            data-testid="current-level-value"
            data-level={data.level}
          >
            {t('self-service:assurance.current', { level: t(LEVEL_ADJECTIVES[data.level]) })}
          </Typography>
          <Typography>{t(LEVEL_EXPLANATIONS[data.level])}</Typography>
          {data.accountMinimum && (
            <Typography variant="body2" data-testid="current-level-minimum">
              {t('self-service:assurance.accountMinimum', {
                level: t(LEVEL_ADJECTIVES[data.accountMinimum]),
              })}
            </Typography>
          )}
          <Typography component="h3" variant="subtitle2" sx={{ mt: 1 }}>
            {t('self-service:assurance.raiseTitle')}
          </Typography>
          {data.level === 'high' ? (
            <Typography>{t('self-service:assurance.top')}</Typography>
          ) : (
            <>
              {data.level !== 'substantial' && (
                <Typography>{t('self-service:assurance.raiseSubstantial')}</Typography>
              )}
              <Typography>{t('self-service:assurance.raiseHigh')}</Typography>
              <Box>
                <Link component={RouterLink} to="/devices" data-testid="current-level-devices">
                  {t('self-service:assurance.devicesLink')}
                </Link>
              </Box>
            </>
          )}
        </Box>
      )}
    </Paper>
  );
}
