/** The legal pages every page links to from its footer, in this order. */
export const LEGAL_LINKS = [
  { to: '/legal-notice', labelKey: 'legal:footer.legalNotice' },
  { to: '/privacy', labelKey: 'legal:footer.privacy' },
  { to: '/accessibility', labelKey: 'legal:footer.accessibility' },
  { to: '/contact', labelKey: 'legal:footer.contact' },
] as const;

/** The day the accessibility statement was drawn up (to change with each new assessment). */
export const ACCESSIBILITY_STATEMENT_DATE = '2026-11-26';
