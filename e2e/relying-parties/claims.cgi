#!/usr/bin/python3
"""The claims mod_auth_openidc passes the application (OIDC_CLAIM_*), as JSON."""
import json
import os

PREFIX = "OIDC_CLAIM_"
claims = {k[len(PREFIX):]: v for k, v in os.environ.items() if k.startswith(PREFIX)}
print("Content-Type: application/json")
print()
print(json.dumps(claims, sort_keys=True))
