import { platformCreateInputSchema } from '@hygie/domain';
import { createPlatform } from '../../modules/platforms/service.js';
import { defineCommand, parseInput } from '../command.js';

export const platformAdd = defineCommand({
  name: 'platform:add',
  summary:
    'registers a platform (OpenID Connect client); prints its client_id and, once, its secret',
  usage:
    '--name NAME --url URL --redirect-uri URI [--redirect-uri URI …] [--post-logout-uri URI …] [--backchannel-logout-uri URI] [--policy open|on_request|admin] [--assurance low|substantial|high] [--public] [--third-party] [--description TEXT] [--logo-url URL]',
  description:
    'Registers a platform (an OpenID Connect client), audited with no actor, checked by the rules of\nthe admin API. Prints its client_id, its secret this one time (none for a public client) and\nthe discovery URL under PUBLIC_URL.',
  options: {
    name: { type: 'string' },
    url: { type: 'string' },
    description: { type: 'string' },
    'logo-url': { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    'post-logout-uri': { type: 'string', multiple: true },
    'backchannel-logout-uri': { type: 'string' },
    policy: { type: 'string' },
    assurance: { type: 'string' },
    public: { type: 'boolean', default: false },
    'third-party': { type: 'boolean', default: false },
  },
  help: {
    name: { value: 'NAME', text: 'the name people see (required)' },
    url: { value: 'URL', text: 'the platform’s address (required)' },
    description: { value: 'TEXT', text: 'a description for "My services"' },
    'logo-url': { value: 'URL', text: 'its logo' },
    'redirect-uri': { value: 'URI', text: 'a redirect URI (required; repeat for more)' },
    'post-logout-uri': { value: 'URI', text: 'a post-logout redirect URI (repeat for more)' },
    'backchannel-logout-uri': { value: 'URI', text: 'where it takes back-channel logout notices' },
    policy: { value: 'POLICY', text: 'open (default), on_request or admin: who may use it' },
    assurance: {
      value: 'LEVEL',
      text: 'low, substantial or high: the lowest level of assurance a sign-in to it needs (none by default)',
    },
    public: { text: 'a public client: no secret, PKCE only' },
    'third-party': { text: 'a third-party platform (people are asked to consent)' },
  },
  run: async (values, env) => {
    const input = parseInput(
      platformCreateInputSchema,
      {
        name: values.name,
        url: values.url,
        description: values.description,
        logoUrl: values['logo-url'],
        redirectUris: values['redirect-uri'],
        postLogoutRedirectUris: values['post-logout-uri'],
        backchannelLogoutUri: values['backchannel-logout-uri'],
        accessPolicy: values.policy,
        minimumLevel: values.assurance,
        public: values.public,
        firstParty: !values['third-party'],
      },
      {
        name: 'name',
        url: 'url',
        description: 'description',
        logoUrl: 'logo-url',
        redirectUris: 'redirect-uri',
        postLogoutRedirectUris: 'post-logout-uri',
        backchannelLogoutUri: 'backchannel-logout-uri',
        accessPolicy: 'policy',
        minimumLevel: 'assurance',
        public: 'public',
        firstParty: 'third-party',
      },
    );
    const ctx = await env.context();
    const created = await createPlatform(ctx, input, { userId: null, ip: null });
    const discovery = new URL('/oidc/.well-known/openid-configuration', ctx.config.publicUrl).href;
    return {
      data: {
        platformId: created.id,
        clientId: created.clientId,
        clientSecret: created.clientSecret,
        minimumLevel: created.minimumLevel,
        discovery,
      },
      text: [
        `platform_id: ${created.id}`,
        `client_id: ${created.clientId}`,
        `minimum level: ${created.minimumLevel ?? 'none'}`,
        created.clientSecret
          ? `client_secret: ${created.clientSecret}`
          : 'client_secret: (none: public client, PKCE)',
        `discovery: ${discovery}`,
        ...(created.clientSecret
          ? ['The secret is shown only now: store it in the platform.']
          : []),
      ].join('\n'),
    };
  },
});
