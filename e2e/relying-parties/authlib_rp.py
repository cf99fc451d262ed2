"""A platform written with Authlib (Debian's python3-authlib), as a Python team would write one.

Usage: authlib_rp.py ISSUER CLIENT_ID CLIENT_SECRET
It listens on 127.0.0.1 (a free port, printed as "listening PORT") and serves:
  /login            starts the authorization code flow (PKCE S256, state, nonce)
  /callback         exchanges the code, validates the ID token against the JWKS, shows the claims
  /session          the signed-in user's claims as JSON (401 when none)
  /userinfo         calls the userinfo endpoint with the access token: its status and body
  /refresh          refreshes the tokens: the new access token's first characters
  /revoke           revokes the refresh token, then tries to refresh with it
  /logout           RP-initiated logout (end_session with id_token_hint)
  /backchannel      OpenID back-channel logout: validates the logout token, ends the session
"""

import json
import secrets
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.oidc.core import CodeIDToken

ISSUER, CLIENT_ID, CLIENT_SECRET = sys.argv[1], sys.argv[2], sys.argv[3]
BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout"

metadata = requests.get(f"{ISSUER}/.well-known/openid-configuration", timeout=10).json()
pending = {}  # state -> (code_verifier, nonce)
session = {}  # the signed-in user: token, claims, sid


def keys():
    return JsonWebKey.import_key_set(requests.get(metadata["jwks_uri"], timeout=10).json())


def client(token=None):
    return OAuth2Session(
        CLIENT_ID,
        CLIENT_SECRET,
        scope="openid email profile phone health",
        redirect_uri=f"{BASE}/callback",
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic",
        token=token,
    )


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, location):
        self.reply(302, b"", "text/plain", {"location": location})

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        route = getattr(self, "get_" + url.path.strip("/").replace("-", "_"), None)
        if route is None:
            self.reply(404, json.dumps({"error": "not_found"}))
            return
        try:
            route(query)
        except Exception as err:  # the test reads the reason
            self.reply(500, json.dumps({"error": type(err).__name__, "detail": str(err)}))

    def get_login(self, query):
        verifier = secrets.token_urlsafe(48)
        nonce = secrets.token_urlsafe(16)
        extra = {k: v for k, v in query.items() if k in ("acr_values", "prompt", "login_hint")}
        uri, state = client().create_authorization_url(
            metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce, **extra
        )
        pending[state] = (verifier, nonce)
        self.redirect(uri)

    def get_callback(self, query):
        verifier, nonce = pending.pop(query["state"])
        token = client().fetch_token(
            metadata["token_endpoint"],
            authorization_response=f"{BASE}{self.path}",
            code_verifier=verifier,
        )
        claims = jwt.decode(
            token["id_token"],
            keys(),
            claims_cls=CodeIDToken,
            claims_options={"iss": {"essential": True, "value": metadata["issuer"]}},
            claims_params={"nonce": nonce, "client_id": CLIENT_ID},
        )
        claims.validate(leeway=5)
        info = client(token).get(metadata["userinfo_endpoint"]).json()
        session.clear()
        session.update(token=token, id_token=dict(claims), userinfo=info, sid=claims.get("sid"))
        page = f"<!DOCTYPE html><html lang='en'><head><title>Authlib platform</title></head><body><main><h1>Authlib platform</h1><pre id='claims'>{json.dumps(info, sort_keys=True)}</pre></main></body></html>"
        self.reply(200, page, "text/html; charset=utf-8")

    def get_session(self, _query):
        if not session:
            self.reply(401, json.dumps({"signed_in": False}))
            return
        self.reply(200, json.dumps({"id_token": session["id_token"], "userinfo": session["userinfo"]}))

    def get_userinfo(self, _query):
        response = requests.get(
            metadata["userinfo_endpoint"],
            headers={"authorization": f"Bearer {session['token']['access_token']}"},
            timeout=10,
        )
        self.reply(200, json.dumps({"status": response.status_code}))

    def get_refresh(self, _query):
        old = session["token"]
        try:
            token = client(old).refresh_token(
                metadata["token_endpoint"], refresh_token=old["refresh_token"]
            )
        except Exception as err:
            self.reply(200, json.dumps({"refreshed": False, "error": getattr(err, "error", str(err))}))
            return
        session["token"] = token
        changed = token["access_token"] != old["access_token"] and token["refresh_token"] != old["refresh_token"]
        self.reply(200, json.dumps({"refreshed": True, "rotated": changed}))

    def get_revoke(self, _query):
        token = session["token"]
        response = client(token).revoke_token(
            metadata["revocation_endpoint"], token=token["refresh_token"], token_type_hint="refresh_token"
        )
        self.reply(200, json.dumps({"status": response.status_code}))

    def get_logout(self, query):
        params = {
            "id_token_hint": session["token"]["id_token"],
            "post_logout_redirect_uri": f"{BASE}/signed-out",
            "state": "bye",
        }
        session.clear()
        self.redirect(f"{metadata['end_session_endpoint']}?{urlencode(params)}")

    def get_signed_out(self, query):
        page = f"<!DOCTYPE html><html lang='en'><head><title>Signed out</title></head><body><main><h1 id='signed-out'>Signed out ({query.get('state', '')})</h1></main></body></html>"
        self.reply(200, page, "text/html; charset=utf-8")

    def do_POST(self):
        if urlparse(self.path).path != "/backchannel":
            self.reply(404, json.dumps({"error": "not_found"}))
            return
        length = int(self.headers.get("content-length", "0"))
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        try:
            # Back-channel logout §2.6: signature, issuer, audience, iat, the event, no nonce.
            claims = jwt.decode(
                form["logout_token"],
                keys(),
                claims_options={
                    "iss": {"essential": True, "value": metadata["issuer"]},
                    "aud": {"essential": True, "value": CLIENT_ID},
                    "iat": {"essential": True},
                },
            )
            claims.validate(now=int(time.time()), leeway=5)
            if BACKCHANNEL_EVENT not in claims.get("events", {}) or "nonce" in claims:
                raise ValueError("not a logout token")
        except Exception as err:
            self.reply(400, json.dumps({"error": "invalid_request", "detail": str(err)}))
            return
        if session and session.get("sid") == claims.get("sid"):
            session.clear()
        self.reply(200, b"", "text/plain")


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[4]) if len(sys.argv) > 4 else 0), Handler)
BASE = f"http://127.0.0.1:{server.server_address[1]}"
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
