/** The sections of the terms of use, in order: `security:cgu.terms.<id>.title|body`. */
export const CGU_SECTIONS = [
  'purpose',
  'account',
  'security',
  'data',
  'care',
  'availability',
  'changes',
] as const;
