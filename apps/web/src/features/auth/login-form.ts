import type { ValidationMessage } from '@hygie/domain';
import type { FormCheck } from '../../lib/form-state';

const FIELD_REQUIRED: ValidationMessage = 'field_required';

// A type, not an interface: a form's values are a record of strings (lib/form-state.ts).
export type LoginForm = { username: string; password: string };

/**
 * The login form's check: both fields present (the username trimmed); the server says whether
 * the credentials are right. A plain function: the login page's first load carries no zod.
 */
export const checkLoginForm: FormCheck<LoginForm, LoginForm> = ({ username, password }) => {
  const trimmed = username.trim();
  if (trimmed && password) return { success: true, data: { username: trimmed, password } };
  return {
    success: false,
    errors: {
      ...(!trimmed && { username: FIELD_REQUIRED }),
      ...(!password && { password: FIELD_REQUIRED }),
    },
  };
};
