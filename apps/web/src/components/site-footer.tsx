import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** The legal pages every page links to from its footer, in this order. */
export const LEGAL_LINKS = [
  { to: '/legal-notice', labelKey: 'legal:footer.legalNotice' },
  { to: '/privacy', labelKey: 'legal:footer.privacy' },
  { to: '/accessibility', labelKey: 'legal:footer.accessibility' },
  { to: '/contact', labelKey: 'legal:footer.contact' },
] as const;

/**
 * The footer of every page (the contentinfo landmark): the legal notice, the personal-data policy,
 * the accessibility statement with the conformance state (RGAA) and the contact, after whatever
 * the layout puts there (`children`).
 */
export function SiteFooter({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box component="footer" data-testid="site-footer" sx={{ py: 3, px: 2, textAlign: 'center' }}>
      {children}
      <Box component="nav" aria-label={t('legal:footer.label')}>
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'center',
            columnGap: 3,
            rowGap: 1,
          }}
        >
          {LEGAL_LINKS.map((link) => (
            <li key={link.to}>
              <Link component={RouterLink} to={link.to} variant="body2">
                {t(link.labelKey)}
              </Link>
            </li>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
