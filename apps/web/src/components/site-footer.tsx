import type { ReactNode } from 'react';
import { AppLink, useTexts } from '../lib/environment';

/** The legal pages every page links to from its footer, in this order. */
export const LEGAL_LINKS = [
  { to: '/legal-notice', labelKey: 'common:footer.legalNotice' },
  { to: '/privacy', labelKey: 'common:footer.privacy' },
  { to: '/accessibility', labelKey: 'common:footer.accessibility' },
  { to: '/contact', labelKey: 'common:footer.contact' },
] as const;

/**
 * The footer of every page (the contentinfo landmark): the legal notice, the personal-data policy,
 * the accessibility statement with the conformance state (RGAA) and the contact, after whatever
 * the layout puts there (`children`).
 */
export function SiteFooter({ children }: { children?: ReactNode }) {
  const { t } = useTexts();
  return (
    <footer data-testid="site-footer" className="hy-footer">
      {children}
      <nav aria-label={t('common:footer.label')}>
        <ul className="hy-footer-links">
          {LEGAL_LINKS.map((link) => (
            <li key={link.to}>
              <AppLink to={link.to} className="hy-link hy-body2">
                {t(link.labelKey)}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
