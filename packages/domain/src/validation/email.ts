import { LIMITS } from '../constants.js';

const LOCAL_MAX_LENGTH = 64;
const LABEL_MAX_LENGTH = 63;
const DOMAIN_MAX_LENGTH = 253;
/** RFC 5322 dot-atom: atext runs separated by single dots (no quoted strings, no comments). */
const LOCAL_PART_REGEX = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** LDH label: letters, digits and inner hyphens (IDNs arrive in their punycode `xn--` form). */
const LABEL_REGEX = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const TOP_LEVEL_DOMAIN_REGEX = /^(?:[A-Za-z]{2,}|xn--[A-Za-z0-9-]+)$/;

/**
 * True for a deliverable-looking address: one @, a dot-atom local part of at most 64 characters,
 * a dotted domain of valid labels, no spaces, at most 180 characters in all.
 */
export function isValidEmail(value: string): boolean {
  if (value.length > LIMITS.emailMax) return false;
  const at = value.indexOf('@');
  if (at < 0 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length === 0 || local.length > LOCAL_MAX_LENGTH || !LOCAL_PART_REGEX.test(local)) {
    return false;
  }
  if (domain.length > DOMAIN_MAX_LENGTH) return false;
  const labels = domain.split('.');
  const topLevel = labels[labels.length - 1];
  return (
    labels.length >= 2 &&
    labels.every((label) => label.length <= LABEL_MAX_LENGTH && LABEL_REGEX.test(label)) &&
    topLevel !== undefined &&
    TOP_LEVEL_DOMAIN_REGEX.test(topLevel)
  );
}

/** Canonical form of an e-mail address, which the portal compares case-insensitively. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
