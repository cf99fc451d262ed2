import { useEnvironment } from '../../lib/environment';
import { errorMessage } from '../../lib/error-message';
import { isPendingStage } from '../../lib/sign-in';
import { useLogin } from './api/login';
import { BiometricSignIn } from './biometric-sign-in';
import { LoginView } from './login-view';

/**
 * The login page's route in the whole client: the view (login-view.tsx) signing in through the
 * API client and TanStack Query. The page the server draws is the island's (app/island/).
 */
export default function LoginPage() {
  const { texts, usePublicConfig } = useEnvironment();
  const config = usePublicConfig();
  const login = useLogin();
  const failure =
    login.isError && !isPendingStage(login.error)
      ? errorMessage(texts, login.error, { contactEmail: config?.contactEmail ?? '' })
      : null;
  return (
    <LoginView
      signIn={{ pending: login.isPending, failure, submit: (values) => login.mutate(values) }}
      biometric={(getUsername) => <BiometricSignIn getUsername={getUsername} />}
    />
  );
}
