/**
 * Host-key checking of the SSH client (issue 21 item 4). Every connection checks the key the
 * server presents before any credential is sent:
 *
 * 1. Hosts listed in the operator's known-hosts file (`SSH_KNOWN_HOSTS`, OpenSSH format: plain or
 *    hashed `|1|salt|hash` names, `[host]:port`, `*`/`?` patterns, `!` negation, `@revoked`) must
 *    present one of the keys listed for them; any other key is refused (`sshHostKeyChanged`).
 * 2. Other hosts are trusted on first use, per user and host (`ssh_host_keys`): the first
 *    connection is refused with `sshHostKeyUnknown` and the key's fingerprint until the user
 *    sends that fingerprint back (`trustFingerprint`), which stores it; later connections must
 *    present the stored key, else `sshHostKeyChanged` (with both fingerprints).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { AppError, type SshHostKey, type SshHostKeyErrorDetails } from '@decisio/domain';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';

/** OpenSSH's fingerprint of a key blob: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named at the start of a key blob (`ssh-ed25519`, `ssh-rsa`, ...). */
export function keyTypeOf(blob: Buffer): string {
  if (blob.length < 4) return 'unknown';
  const n = blob.readUInt32BE(0);
  return n > 0 && n <= 64 && blob.length >= 4 + n ? blob.subarray(4, 4 + n).toString('latin1') : 'unknown';
}

/** One usable line of a known_hosts file. */
interface KnownHostsLine {
  revoked: boolean;
  patterns: string[];
  keyType: string;
  key: Buffer;
}

/** Parses an OpenSSH known_hosts text; lines it cannot use (comments, `@cert-authority`, malformed) are skipped. */
export function parseKnownHosts(text: string): KnownHostsLine[] {
  const out: KnownHostsLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    let revoked = false;
    if (parts[0]!.startsWith('@')) {
      const marker = parts.shift()!;
      if (marker === '@revoked') revoked = true;
      else continue; // @cert-authority: host certificates are not supported
    }
    const [hosts, keyType, key] = parts;
    if (!hosts || !keyType || !key || !/^[A-Za-z0-9+/]+={0,2}$/.test(key)) continue;
    out.push({ revoked, patterns: hosts.split(','), keyType, key: Buffer.from(key, 'base64') });
  }
  return out;
}

/** The name a known_hosts file lists a host under: `host` on port 22, else `[host]:port`. */
function knownHostsName(host: string, port: number): string {
  return port === 22 ? host.toLowerCase() : `[${host.toLowerCase()}]:${port}`;
}

function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  return re.test(name);
}

function patternMatches(pattern: string, name: string): boolean {
  if (pattern.startsWith('|1|')) {
    const [, , salt, hash] = pattern.split('|');
    if (!salt || !hash) return false;
    const want = Buffer.from(hash, 'base64');
    const got = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
    return want.length === got.length && timingSafeEqual(want, got);
  }
  return globMatch(pattern, name);
}

/** Whether a line's host patterns name the host (a matching `!pattern` excludes it). */
export function lineMatches(patterns: readonly string[], host: string, port: number): boolean {
  const name = knownHostsName(host, port);
  let hit = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (patternMatches(p.slice(1), name)) return false;
    } else if (patternMatches(p, name)) hit = true;
  }
  return hit;
}

/** Who connects, for the per-user store. */
export interface HostKeyActor {
  id: string;
  tenantId: string;
}

/** What {@link HostKeys.check} decided. */
export type HostKeyVerdict = { ok: true; hostKey: SshHostKey } | { ok: false; error: AppError };

export class HostKeys {
  constructor(
    private readonly db: Database,
    private readonly knownHostsFile: string | null,
  ) {}

  /** The known_hosts lines naming the host (read at each check, so the operator may edit the file). */
  private listed(host: string, port: number): KnownHostsLine[] {
    if (!this.knownHostsFile) return [];
    let text: string;
    try {
      text = fs.readFileSync(this.knownHostsFile, 'utf8');
    } catch {
      return [];
    }
    return parseKnownHosts(text).filter((l) => lineMatches(l.patterns, host, port));
  }

  /**
   * Checks the key `blob` that `host:port` presented to `actor`. `trustFingerprint`: the
   * fingerprint the user confirmed, stored when it is the presented key's and the host is new.
   */
  async check(actor: HostKeyActor, host: string, port: number, blob: Buffer, trustFingerprint?: string): Promise<HostKeyVerdict> {
    const fingerprint = fingerprintOf(blob);
    const type = keyTypeOf(blob);
    const name = host.toLowerCase();
    const details = (stored?: string): Record<string, string> => {
      const d: SshHostKeyErrorDetails = { host: name, port: String(port), keyType: type, fingerprint, ...(stored ? { storedFingerprint: stored } : {}) };
      return d as unknown as Record<string, string>;
    };
    const listed = this.listed(name, port);
    if (listed.some((l) => l.revoked && l.key.equals(blob))) return { ok: false, error: new AppError('sshHostKeyChanged', details()) };
    const trusted = listed.filter((l) => !l.revoked);
    if (trusted.length > 0) {
      if (trusted.some((l) => l.key.equals(blob))) return { ok: true, hostKey: { type, fingerprint, trust: 'knownHosts' } };
      return { ok: false, error: new AppError('sshHostKeyChanged', details(fingerprintOf(trusted[0]!.key))) };
    }
    const knex = this.db.executor();
    const row = (await knex('ssh_host_keys').where({ user_id: actor.id, host: name, port }).first()) as { fingerprint: string } | undefined;
    if (row) {
      if (row.fingerprint === fingerprint) return { ok: true, hostKey: { type, fingerprint, trust: 'stored' } };
      return { ok: false, error: new AppError('sshHostKeyChanged', details(row.fingerprint)) };
    }
    if (trustFingerprint !== fingerprint) return { ok: false, error: new AppError('sshHostKeyUnknown', details()) };
    await knex('ssh_host_keys')
      .insert({ id: newId(), tenant_id: actor.tenantId, user_id: actor.id, host: name, port, key_type: type.slice(0, 64), fingerprint, created_at: new Date() })
      .onConflict(['user_id', 'host', 'port'])
      .ignore();
    // Two first connections at once: the key that was stored is the one that counts.
    const kept = (await knex('ssh_host_keys').where({ user_id: actor.id, host: name, port }).first()) as { fingerprint: string } | undefined;
    if (kept && kept.fingerprint !== fingerprint) return { ok: false, error: new AppError('sshHostKeyChanged', details(kept.fingerprint)) };
    return { ok: true, hostKey: { type, fingerprint, trust: 'new' } };
  }

  /** Forgets the key `actor` trusted for `host:port`; answers whether there was one. */
  async forget(actor: HostKeyActor, host: string, port: number): Promise<boolean> {
    const n = await this.db.executor()('ssh_host_keys').where({ user_id: actor.id, host: host.toLowerCase(), port }).delete();
    return n > 0;
  }
}
