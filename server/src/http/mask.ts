/** Placeholder written instead of a secret. */
export const MASK = '******';

const SECRET_KEYS = new Set([
  'password',
  'oripassword',
  'confirmpassword',
  'newpassword',
  'oldpassword',
  'token',
  'accesstoken',
  'refreshtoken',
  'secret',
  'clientsecret',
  'key',
  'privatekey',
  'passphrase',
  'userprivatekey',
  'apikey',
  'accesskey',
  'secretkey',
  'authorization',
  'cookie',
  'verifycode',
  'smscode',
  'emailcode',
]);

/** True for keys whose values are secrets (case- and separator-insensitive, `*password*`, `*secret*`, `*token*`). */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_\s]/g, '');
  return SECRET_KEYS.has(k) || k.includes('password') || k.includes('secret') || k.endsWith('token') || k.endsWith('privatekey');
}

/** A deep copy of `value` with the values of secret keys replaced by `MASK`. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return '[deep]';
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = isSecretKey(k) && v !== null && v !== undefined && v !== '' ? MASK : maskSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}
