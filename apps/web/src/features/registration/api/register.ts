import { useMutation } from '@tanstack/react-query';
import { registrationResultSchema } from '@hygie/domain';
import { useServices } from '../../../lib/services';

/**
 * POST /api/register with a body of patientRegistrationSchema or professionalRegistrationSchema
 * (as those schemas output it) → `{ email, status }` (201). 409 email_already_used.
 */
export function useRegister() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (input: unknown) => api.post('/register', input, registrationResultSchema),
  });
}
