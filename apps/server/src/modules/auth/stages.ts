import type { ErrorCode } from '@hygie/domain';
import type { UserRow } from '../../db/schema.js';
import { COMPLETE } from '../sessions/service.js';

/**
 * The sign-in state machine (architecture §3) after the password: the first stage still to pass,
 * or COMPLETE. Account status is checked before a session exists (see service.ts).
 * Stages are added here as their flows land; the order is the specification's.
 */
export function pendingStage(
  user: Pick<UserRow, 'must_create_password'>,
): ErrorCode | typeof COMPLETE {
  if (user.must_create_password === 1) return 'password_creation_required';
  return COMPLETE;
}
