import { z } from 'zod';
import type { ValidationMessage } from '@hygie/domain';

const FIELD_REQUIRED: ValidationMessage = 'field_required';

// Login only checks presence; the server says whether the credentials are right.
export const loginFormSchema = z.object({
  username: z.string().trim().min(1, { error: FIELD_REQUIRED }),
  password: z.string().min(1, { error: FIELD_REQUIRED }),
});
export type LoginForm = z.infer<typeof loginFormSchema>;
