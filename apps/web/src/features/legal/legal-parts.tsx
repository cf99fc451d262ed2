import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** A part of a legal page: an h2 and its content. */
export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 4 }}>
      <Typography variant="h5" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A paragraph of a legal page. */
export function Paragraph({ children }: { children: ReactNode }) {
  return <Typography sx={{ mb: 1.5 }}>{children}</Typography>;
}

/** A bulleted list of a legal page. */
export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <Box component="ul" sx={{ mt: 0, mb: 1.5, pl: 3 }}>
      {items.map((item, index) => (
        <Typography component="li" key={index} sx={{ mb: 0.5 }}>
          {item}
        </Typography>
      ))}
    </Box>
  );
}

/** Labelled facts (a description list). */
export function Facts({ children }: { children: ReactNode }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 3,
        rowGap: 1,
        m: 0,
        mb: 1.5,
      }}
    >
      {children}
    </Box>
  );
}

/** One fact: its label and value; an unset value says the operator did not provide it. */
export function Fact({
  label,
  value,
  testId,
}: {
  label: string;
  value: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const missing = value === null || value === undefined || value === '';
  return (
    <>
      <Typography component="dt" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      <Typography
        component="dd"
        data-testid={testId}
        sx={{
          m: 0,
          minWidth: 0,
          whiteSpace: 'pre-line',
          // Addresses and e-mails wrap rather than widening a phone's screen (reflow at 320 px).
          overflowWrap: 'anywhere',
          ...(missing && { fontStyle: 'italic' }),
        }}
      >
        {missing ? t('legal:notConfigured') : value}
      </Typography>
    </>
  );
}

/** While the configured facts load: a spinner; if they fail: an error saying to retry later. */
export function LegalLoading({ pending, failed }: { pending: boolean; failed: boolean }) {
  const { t } = useTranslation();
  if (pending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
        <CircularProgress aria-label={t('common:loading')} />
      </Box>
    );
  }
  if (failed) return <Alert severity="error">{t('legal:loadError')}</Alert>;
  return null;
}

/** An e-mail address as a mailto link, kept left to right in Arabic. */
export function MailLink({ address, testId }: { address: string; testId?: string }) {
  return (
    <Link href={`mailto:${address}`} data-testid={testId}>
      <bdi>{address}</bdi>
    </Link>
  );
}
