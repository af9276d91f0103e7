/**
 * Password transport encryption, isomorphic (browser WebCrypto and Node's `globalThis.crypto`).
 *
 * The browser encrypts the plain password with the server's RSA-OAEP (SHA-256) public key
 * before it leaves the page (`index/signIn`, `index/signUp`, `user/modifyPassword`,
 * `index/resetPassword`). The server decrypts it, checks the password rules and stores only a
 * slow hash (argon2id). The key comes from `index/getPublicKey` as SPKI in base64.
 *
 * Account passwords (sign-in, sign-up, password change and reset) carry a one-time server nonce
 * inside the ciphertext (`encryptAccountPassword`), so a captured body cannot be replayed: every
 * `index/getPublicKey` answer holds a fresh nonce valid for a short time, and the server accepts
 * it once. Plaintext: UTF-8 of `"\0" + nonce + "\0" + password`. Other secrets (data-connection
 * passwords) use `encryptPassword` without a nonce; the server refuses a plaintext starting with
 * `"\0"` there, so an account ciphertext cannot be decrypted through those calls.
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

/** Marker that starts the plaintext of an account password (see the file comment). */
export const ACCOUNT_PASSWORD_MARK = '\u0000';

/** The plaintext `encryptAccountPassword` encrypts: `"\0" + nonce + "\0" + password`. */
export function accountPasswordPlaintext(nonce: string, plain: string): string {
  return ACCOUNT_PASSWORD_MARK + nonce + ACCOUNT_PASSWORD_MARK + plain;
}

/**
 * Encrypts an account password with the key and one-time nonce of one `index/getPublicKey`
 * answer. Fetch a new answer for every submission: the server accepts each nonce once.
 */
export function encryptAccountPassword(key: { spki: string; nonce: string }, plain: string): Promise<string> {
  return encryptPassword(key.spki, accountPasswordPlaintext(key.nonce, plain));
}
