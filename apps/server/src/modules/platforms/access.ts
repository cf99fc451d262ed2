import type { PlatformAccessTable, PlatformTable } from '../../db/schema.js';

export type AccessPolicy = PlatformTable['access_policy'];
export type AccessStatus = PlatformAccessTable['status'];

/**
 * May this user use this platform? One rule for "My services", the admin table and the OIDC
 * provider:
 * - `open`: everyone, unless an admin disabled the user's access;
 * - `on_request`: once the user enabled it from "My services" (and an admin did not disable it);
 * - `admin`: only when an admin granted it.
 * An admin's `disabled` always wins.
 */
export function canUsePlatform(
  policy: AccessPolicy,
  status: AccessStatus | null | undefined,
): boolean {
  if (status === 'disabled') return false;
  if (policy === 'open') return true;
  return status === 'enabled';
}

/** What the user may do about a platform they cannot use yet. */
export function nextUserAction(
  policy: AccessPolicy,
  status: AccessStatus | null | undefined,
): 'open' | 'enable' | 'request' | 'pending' | 'none' {
  if (canUsePlatform(policy, status)) return 'open';
  if (status === 'disabled') return 'none';
  if (policy === 'on_request') return 'enable';
  return status === 'requested' ? 'pending' : 'request';
}
