import { createPublicKey, verify } from 'node:crypto';

/**
 * The mobile app's keys: P-256 public keys in SPKI (DER, base64url); signatures are ECDSA with
 * SHA-256 over the UTF-8 bytes of the challenge string, in IEEE P1363 form (r‖s, 64 bytes) as
 * WebCrypto, Android Keystore (after conversion) and iOS Secure Enclave produce them.
 */
export function isP256PublicKey(spkiBase64url: string): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(spkiBase64url, 'base64url'),
      format: 'der',
      type: 'spki',
    });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

export function verifyNativeSignature(
  spkiBase64url: string,
  challenge: string,
  signatureBase64url: string,
): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(spkiBase64url, 'base64url'),
      format: 'der',
      type: 'spki',
    });
    return verify(
      'sha256',
      Buffer.from(challenge, 'utf8'),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signatureBase64url, 'base64url'),
    );
  } catch {
    return false;
  }
}
