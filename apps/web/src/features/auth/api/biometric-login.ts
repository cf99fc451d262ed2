import { useMutation } from '@tanstack/react-query';
import type { CurrentUser } from '@hygie/domain';
import { signInWithNativeKey, signInWithPasskey } from '../../../lib/biometrics';
import { useServices } from '../../../lib/services';
import { useCompleteSignIn } from '../../../lib/sign-in';

/**
 * Passkey sign-in (POST /api/biometrics/webauthn/authentication/options → browser prompt →
 * …/verify). The answer is handled like a password sign-in's (see useLogin).
 */
export function usePasskeyLogin() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (username: string | undefined) => signInWithPasskey(api, username),
    onSuccess: (user: CurrentUser) => complete(user),
  });
}

/** Sign-in with the app's key (POST /api/biometrics/native/login/challenge → signChallenge → …/login). */
export function useNativeLogin() {
  const { api } = useServices();
  const complete = useCompleteSignIn();
  return useMutation({
    mutationFn: (input: { keyId: string; promptTitle: string }) =>
      signInWithNativeKey(api, input.keyId, input.promptTitle),
    onSuccess: (user: CurrentUser) => complete(user),
  });
}
