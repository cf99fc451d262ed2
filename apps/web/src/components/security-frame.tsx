import type { ReactNode } from 'react';
import { BrandLogo } from './brand-logo';
import { LanguageSwitcher } from './language-switcher';
import { SiteFooter } from './site-footer';
import { SkipLink } from './skip-link';

/**
 * The security screens' frame (login, registration, verifications…): a centred card, the brand and
 * the language at its top, the footer's legal links under it. Plain elements (app/base.css): the
 * whole client's security layout and the login page's island draw it alike.
 */
export function SecurityFrame({
  children,
  footerAction,
}: {
  children: ReactNode;
  /** What the footer offers before its links (sign out, back to the login page), if anything. */
  footerAction?: ReactNode;
}) {
  return (
    <div className="hy-security">
      <SkipLink />
      <div className="hy-container">
        <header className="hy-security-header">
          <BrandLogo />
          <LanguageSwitcher />
        </header>
        <main id="main-content" tabIndex={-1} className="hy-card">
          {children}
        </main>
        <SiteFooter>
          <div className="hy-mb-2">{footerAction}</div>
        </SiteFooter>
      </div>
    </div>
  );
}
