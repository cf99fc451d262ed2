import { platformCreateInputSchema } from '@hygie/domain';
import type { AppContext } from '../../context.js';
import { createPlatform } from './service.js';

export interface PlatformAddOptions {
  name?: string;
  url?: string;
  description?: string;
  'logo-url'?: string;
  'redirect-uri'?: string[];
  'post-logout-uri'?: string[];
  'backchannel-logout-uri'?: string;
  policy?: string;
  public?: boolean;
  'third-party'?: boolean;
}

/**
 * `platform:add`: registers a platform from the command line (audited with no actor) and returns
 * what to print — the client id, and the secret this one time. Refused input throws, naming it.
 */
export async function addPlatformCommand(
  ctx: AppContext,
  options: PlatformAddOptions,
): Promise<string> {
  const parsed = platformCreateInputSchema.safeParse({
    name: options.name,
    url: options.url,
    description: options.description,
    logoUrl: options['logo-url'],
    redirectUris: options['redirect-uri'] ?? [],
    postLogoutRedirectUris: options['post-logout-uri'] ?? [],
    backchannelLogoutUri: options['backchannel-logout-uri'],
    accessPolicy: options.policy,
    public: options.public ?? false,
    firstParty: !options['third-party'],
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `  ${i.path.join('.') || 'input'}: ${i.message}`,
    );
    throw new Error(`platform refused:\n${problems.join('\n')}`);
  }
  const created = await createPlatform(ctx, parsed.data, { userId: null, ip: null });
  const discovery = new URL('/oidc/.well-known/openid-configuration', ctx.config.publicUrl).href;
  return [
    `platform_id: ${created.id}`,
    `client_id: ${created.clientId}`,
    created.clientSecret
      ? `client_secret: ${created.clientSecret}`
      : 'client_secret: (none: public client, PKCE)',
    `discovery: ${discovery}`,
    ...(created.clientSecret ? ['The secret is shown only now: store it in the platform.'] : []),
  ].join('\n');
}
