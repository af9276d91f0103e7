/**
 * Password transport encryption, isomorphic (browser WebCrypto and Node's `globalThis.crypto`).
 *
 * The browser encrypts the plain password with the server's RSA-OAEP (SHA-256) public key
 * before it leaves the page (`index/signIn`, `index/signUp`, `user/modifyPassword`,
 * `index/resetPassword`). The server decrypts it, checks the password rules and stores only a
 * slow hash (argon2id). The key comes from `index/getPublicKey` as SPKI in base64.
 */

function b64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesToB64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin);
}

/** Encrypts `plain` with an RSA-OAEP-256 public key given as SPKI base64; returns base64. */
export async function encryptPassword(spkiBase64: string, plain: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'spki',
    b64ToBytes(spkiBase64),
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const cipher = await globalThis.crypto.subtle.encrypt(
    { name: 'RSA-OAEP' },
    key,
    new TextEncoder().encode(plain),
  );
  return bytesToB64(new Uint8Array(cipher));
}
