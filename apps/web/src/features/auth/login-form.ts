import * as z from 'zod/mini';
import type { ValidationMessage } from '@hygie/domain';

const FIELD_REQUIRED: ValidationMessage = 'field_required';

// Login only checks presence; the server says whether the credentials are right.
export const loginFormSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, { error: FIELD_REQUIRED })),
  password: z.string().check(z.minLength(1, { error: FIELD_REQUIRED })),
});
export type LoginForm = z.infer<typeof loginFormSchema>;
