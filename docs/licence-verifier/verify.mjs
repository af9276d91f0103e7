#!/usr/bin/env node
/**
 * Decisio licence verifier: checks a licence file issued by a Decisio server without the server.
 * Dependency-free (Node.js >= 18, node:crypto only). See README.md beside this file.
 *
 *   node verify.mjs --licence licence.json --public-key licence-key.pem --device device.bin
 *   node verify.mjs --licence licence.json --public-key licence-key.pem --user-key dk_...
 *
 * Exit status: 0 valid, 1 invalid (the reason on stderr), 2 wrong usage or unreadable files.
 * Prints the licence's payload as JSON on stdout when it is valid.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Verifies a licence.
 * @param {{ licenceText: string, publicKeyPem: string, deviceBytes?: Uint8Array, userKey?: string, now?: Date }} input
 * @returns {{ valid: true, payload: object } | { valid: false, reason: string }}
 *   reasons: `format`, `signature`, `notYetValid`, `expired`, `deviceMismatch`, `userKeyMismatch`,
 *   `deviceRequired`, `userKeyRequired`.
 */
export function verifyLicence({ licenceText, publicKeyPem, deviceBytes, userKey, now = new Date() }) {
  let file;
  try {
    file = JSON.parse(licenceText);
  } catch {
    return { valid: false, reason: 'format' };
  }
  if (!file || file.format !== 'decisio-licence/1' || typeof file.payload !== 'string' || typeof file.signature !== 'string') return { valid: false, reason: 'format' };
  const bytes = Buffer.from(file.payload, 'base64url');
  let ok = false;
  try {
    ok = verify(null, bytes, createPublicKey(publicKeyPem), Buffer.from(file.signature, 'base64url'));
  } catch {
    ok = false;
  }
  if (!ok) return { valid: false, reason: 'signature' };
  let payload;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { valid: false, reason: 'format' };
  }
  const t = now.getTime();
  if (t < Date.parse(payload.notBefore)) return { valid: false, reason: 'notYetValid' };
  if (!(t < Date.parse(payload.notAfter))) return { valid: false, reason: 'expired' };
  const sha256 = (data) => createHash('sha256').update(data).digest('hex');
  if (payload.deviceSha256) {
    if (!deviceBytes) return { valid: false, reason: 'deviceRequired' };
    if (sha256(deviceBytes) !== payload.deviceSha256) return { valid: false, reason: 'deviceMismatch' };
  }
  if (payload.userKeySha256) {
    if (!userKey) return { valid: false, reason: 'userKeyRequired' };
    if (sha256(Buffer.from(userKey, 'utf8')) !== payload.userKeySha256) return { valid: false, reason: 'userKeyMismatch' };
  }
  return { valid: true, payload };
}

function main(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    if (!name?.startsWith('--') || argv[i + 1] === undefined) {
      process.stderr.write('usage: verify.mjs --licence FILE --public-key FILE [--device FILE] [--user-key KEY] [--now ISO-TIME]\n');
      return 2;
    }
    args[name.slice(2)] = argv[i + 1];
  }
  if (!args.licence || !args['public-key']) {
    process.stderr.write('usage: verify.mjs --licence FILE --public-key FILE [--device FILE] [--user-key KEY] [--now ISO-TIME]\n');
    return 2;
  }
  let input;
  try {
    input = {
      licenceText: readFileSync(args.licence, 'utf8'),
      publicKeyPem: readFileSync(args['public-key'], 'utf8'),
      deviceBytes: args.device ? readFileSync(args.device) : undefined,
      userKey: args['user-key'],
      now: args.now ? new Date(args.now) : new Date(),
    };
  } catch (err) {
    process.stderr.write(`cannot read: ${err.message}\n`);
    return 2;
  }
  const result = verifyLicence(input);
  if (!result.valid) {
    process.stderr.write(`invalid licence: ${result.reason}\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify(result.payload, null, 2)}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
