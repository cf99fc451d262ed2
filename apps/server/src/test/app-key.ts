import { webcrypto } from 'node:crypto';

/** A stand-in for the mobile app's biometric-protected key: a real P-256 key from WebCrypto. */
export async function appKey() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]);
  const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', pair.publicKey)).toString(
    'base64url',
  );
  const sign = async (challenge: string) =>
    Buffer.from(
      await webcrypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        pair.privateKey,
        new TextEncoder().encode(challenge),
      ),
    ).toString('base64url');
  return {
    spki,
    sign,
    keyId: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('base64url'),
  };
}
