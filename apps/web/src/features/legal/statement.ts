/** The day the accessibility statement was drawn up (to change with each new assessment). */
export const ACCESSIBILITY_STATEMENT_DATE = '2026-11-26';
