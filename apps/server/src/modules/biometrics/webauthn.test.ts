import { describe, expect, it } from 'vitest';
import { parseAuthenticationResponse, parseRegistrationResponse } from './webauthn.js';

// What @simplewebauthn/browser's startRegistration / startAuthentication send (after JSON).
const registration = {
  id: 'a2V5LWlk',
  rawId: 'a2V5LWlk',
  response: {
    attestationObject: 'o2NmbXRkbm9uZQ',
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
    transports: ['internal', 'hybrid'],
    publicKeyAlgorithm: -7,
    publicKey: 'MFkwEwYHKoZIzj0CAQ',
    authenticatorData: 'SZYN5YgOjGh0NBcP',
  },
  type: 'public-key',
  clientExtensionResults: { credProps: { rk: true } },
  authenticatorAttachment: 'platform',
};
const authentication = {
  id: 'a2V5LWlk',
  rawId: 'a2V5LWlk',
  response: {
    authenticatorData: 'SZYN5YgOjGh0NBcP',
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    signature: 'MEUCIQ',
    userHandle: 'dXNlcg',
  },
  type: 'public-key',
  clientExtensionResults: {},
};

describe('the browser WebAuthn JSON, read as SimpleWebAuthn takes it', () => {
  it('keeps a registration and an authentication response as they are', () => {
    expect(parseRegistrationResponse(registration)).toEqual(registration);
    expect(parseAuthenticationResponse(authentication)).toEqual(authentication);
    const unknownMember = { ...authentication, future: { flag: true } };
    expect(parseAuthenticationResponse(unknownMember)).toEqual(unknownMember);
  });

  it('refuses another shape', () => {
    expect(() => parseRegistrationResponse({ id: 'abc', type: 'public-key' })).toThrow();
    expect(() => parseRegistrationResponse(authentication)).toThrow();
    expect(() => parseAuthenticationResponse(registration)).toThrow();
    expect(() => parseAuthenticationResponse({ ...authentication, type: 'password' })).toThrow();
  });
});
