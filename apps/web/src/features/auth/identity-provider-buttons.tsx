import { IdentityProviderButton } from '../../components/identity-provider-button';
import { MuiRoot } from '../../lib/mui-root';

/** The login page's provider buttons, with MUI (loaded lazily by identity-provider-sign-in). */
export default function IdentityProviderButtons({
  providers,
  target,
}: {
  providers: readonly string[];
  target: string | null;
}) {
  return (
    <MuiRoot>
      <div className="hy-stack">
        {providers.map((provider) => (
          <IdentityProviderButton key={provider} provider={provider} target={target} />
        ))}
      </div>
    </MuiRoot>
  );
}
