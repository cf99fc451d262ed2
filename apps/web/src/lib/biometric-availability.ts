import { useQuery } from '@tanstack/react-query';
import { biometricAvailability } from './native-bridge';

/**
 * The app's `biometricAvailability` answer, asked once before offering biometric sign-in or
 * enrolment; `enabled` false (a browser) asks nothing.
 */
export function useBiometricAvailability(enabled: boolean) {
  return useQuery({
    queryKey: ['biometric-availability'],
    queryFn: () => biometricAvailability(),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
