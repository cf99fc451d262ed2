import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message';
import { useSupport } from './api/support';

function isWebUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** The support contact (GET /api/support): contact, phone, mail, website, head office, links. */
export function SupportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const support = useSupport(open);
  const data = support.data;

  const row = (label: string, value: ReactNode) => (
    <>
      <Typography component="dt" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {value}
      </Typography>
    </>
  );

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="support-title"
      data-testid="support-dialog"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="support-title">{t('account:support.title')}</DialogTitle>
      <DialogContent>
        {support.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
            <CircularProgress aria-label={t('common:loading')} />
          </Box>
        )}
        {support.isError && <Alert severity="error">{errorMessage(i18n, support.error)}</Alert>}
        {data && (
          <>
            <Box
              component="dl"
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
                columnGap: 3,
                rowGap: 1,
                m: 0,
              }}
            >
              {row(t('account:support.contact'), data.contact)}
              {data.phone &&
                row(
                  t('account:support.phone'),
                  <Link href={`tel:${data.phone.replace(/\s+/g, '')}`}>
                    <bdi>{data.phone}</bdi>
                  </Link>,
                )}
              {row(
                t('account:support.mail'),
                <Link href={`mailto:${data.mail}`}>
                  <bdi>{data.mail}</bdi>
                </Link>,
              )}
              {data.website &&
                isWebUrl(data.website) &&
                row(
                  t('account:support.website'),
                  <Link href={data.website} target="_blank" rel="noopener noreferrer">
                    <bdi>{data.website}</bdi>
                  </Link>,
                )}
              {data.headOffice && row(t('account:support.headOffice'), data.headOffice)}
            </Box>
            {data.usefulLinks.length > 0 && (
              <>
                <Typography variant="subtitle1" component="h3" sx={{ mt: 2, fontWeight: 500 }}>
                  {t('account:support.usefulLinks')}
                </Typography>
                <Box component="ul" sx={{ m: 0, pl: 3 }}>
                  {data.usefulLinks
                    .filter((link) => isWebUrl(link.url))
                    .map((link) => (
                      <li key={link.url}>
                        <Link href={link.url} target="_blank" rel="noopener noreferrer">
                          {link.label}
                        </Link>
                      </li>
                    ))}
                </Box>
              </>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
