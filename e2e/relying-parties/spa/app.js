// A single-page platform with oidc-client-ts: a public client (PKCE, no secret) in the browser.
// The suite serves this file with config.js (authority and client id) and drives `window.platform`.
const manager = new oidc.UserManager({
  ...window.RP_CONFIG,
  redirect_uri: `${location.origin}/callback`,
  post_logout_redirect_uri: `${location.origin}/`,
  response_type: 'code',
  scope: 'openid email profile health',
  loadUserInfo: true,
  // Keep acr and amr in the profile: the page checks how the user signed in.
  filterProtocolClaims: false,
  automaticSilentRenew: false,
  userStore: new oidc.WebStorageStateStore({ store: window.sessionStorage }),
});

function show(user) {
  document.getElementById('status').textContent = 'signed in';
  document.getElementById('profile').textContent = JSON.stringify(user.profile);
}

window.platform = {
  login: () => manager.signinRedirect(),
  user: async () => {
    const user = await manager.getUser();
    return (
      user && { profile: user.profile, access: user.access_token, refresh: user.refresh_token }
    );
  },
  // With a refresh token, oidc-client-ts refreshes by the token endpoint (a CORS request).
  refresh: () =>
    manager.signinSilent().then(
      (user) => ({ access: user.access_token, refresh: user.refresh_token }),
      (err) => ({ error: err.error ?? err.message }),
    ),
  revoke: () => manager.revokeTokens(['refresh_token']),
  logout: () => manager.signoutRedirect(),
};

if (location.pathname === '/callback') {
  manager.signinRedirectCallback().then(show, (err) => {
    document.getElementById('status').textContent = `error: ${err.message}`;
  });
}
