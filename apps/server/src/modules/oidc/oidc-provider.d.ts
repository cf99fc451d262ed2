// oidc-provider 8 ships no types (the DefinitelyTyped package follows its own major versions): the
// part of its API this module uses, typed from the library's documentation.
declare module 'oidc-provider' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown> & {
    accountId?: string;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: unknown;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface CookiesJar {
    get(name: string, options?: { signed?: boolean }): string | undefined;
    set(name: string, value: string | null, options?: Record<string, unknown>): void;
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    clientAuthMethod: string;
    redirectUris: string[];
    postLogoutRedirectUris: string[];
    clientSecret?: string;
    compareClientSecret(actual: string): Promise<boolean> | boolean;
  }

  export interface SessionInstance {
    accountId?: string;
    uid: string;
    jti: string;
    grantIdFor(clientId: string): string | undefined;
  }

  export interface GrantInstance {
    jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    getOIDCScope(): string;
    save(ttl?: number): Promise<string>;
  }

  export interface InteractionResults {
    login?: { accountId: string; acr?: string; amr?: string[]; ts?: number; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
    [key: string]: unknown;
  }

  export interface PromptDetail {
    name: string;
    reasons: string[];
    details: {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
      [key: string]: unknown;
    };
  }

  export interface Interaction {
    uid: string;
    jti: string;
    returnTo: string;
    prompt: PromptDetail;
    params: Record<string, unknown> & { client_id?: string; scope?: string; ui_locales?: string };
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    lastSubmission?: InteractionResults;
    result?: InteractionResults;
  }

  export interface OIDCContext {
    route: string;
    client?: ClientInstance;
    session?: SessionInstance;
    params?: Record<string, unknown> & { logout?: string; ui_locales?: string };
    result?: InteractionResults;
    requestParamOIDCScopes: Set<string>;
    requestParamClaims?: Set<string>;
    cookies: CookiesJar;
    entities: Record<string, unknown>;
    provider: Provider;
  }

  export interface KoaContextWithOIDC {
    req: IncomingMessage;
    res: ServerResponse;
    oidc: OIDCContext;
    cookies: CookiesJar;
    status: number;
    body: unknown;
    type: string;
    secure: boolean;
    method: string;
    path: string;
    redirect(url: string): void;
    set(field: string, value: string): void;
    get(field: string): string;
    acceptsLanguages(...languages: string[]): string | false;
  }

  export type FindAccount = (
    ctx: KoaContextWithOIDC,
    sub: string,
    token?: { kind?: string; clientId?: string } & Record<string, unknown>,
  ) => Promise<Account | undefined>;

  export interface Account {
    accountId: string;
    claims(
      use: string,
      scope: string,
      claims: Record<string, unknown>,
      rejected: string[],
    ): Promise<Record<string, unknown> & { sub: string }>;
  }

  export interface CheckInstance {
    reason: string;
  }

  export interface CheckConstructor {
    new (
      reason: string,
      description: string,
      error: string,
      check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
    ): CheckInstance;
    REQUEST_PROMPT: true;
    NO_NEED_TO_PROMPT: false;
  }

  export interface Prompt {
    name: string;
    checks: CheckInstance[] & { add(check: CheckInstance, index?: number): void };
  }

  export interface Policy extends Array<Prompt> {
    get(name: string): Prompt | undefined;
  }

  export const interactionPolicy: { Check: CheckConstructor; base(): Policy };

  export const errors: {
    InvalidGrant: new (description?: string) => Error;
    AccessDenied: new (description?: string) => Error;
  };

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    client_name?: string;
    client_uri?: string;
    logo_uri?: string;
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    application_type?: 'web' | 'native';
    [key: string]: unknown;
  }

  export type Configuration = Record<string, unknown>;

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export default class Provider extends EventEmitter {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    readonly issuer: string;
    readonly Grant: GrantConstructor;
    readonly Client: {
      prototype: ClientInstance;
      find(id: string): Promise<ClientInstance | undefined>;
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
  }
}
