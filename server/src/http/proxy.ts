import net from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Which peers' `X-Forwarded-For` / `X-Forwarded-Proto` are believed (`TRUST_PROXY`):
 * `false` none (the default: the socket is the truth), `true` the direct peer whatever it is
 * (one reverse proxy in front), or the addresses / CIDRs of the proxies.
 */
export type TrustProxy = boolean | readonly string[];

/** The part of a Koa context the helpers read. */
export interface ProxiedRequest {
  req: IncomingMessage;
  get(field: string): string;
  app: object;
}

type Trusts = (address: string) => boolean;

const NONE: Trusts = () => false;
/** `TRUST_PROXY=1`: the one proxy in front, whatever its address (recognised by identity). */
const ONE_HOP: Trusts = () => true;
const trustOf = new WeakMap<object, Trusts>();

/** `::ffff:1.2.3.4` -> `1.2.3.4`; brackets and ports of forwarded IPv6 entries are dropped. */
function normalise(address: string): string {
  let a = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(a);
  return (mapped ? mapped[1]! : a).toLowerCase();
}

/**
 * Parses a `TRUST_PROXY` list entry set (addresses or CIDRs) into a matcher; throws on an entry
 * that is neither, so a bad deployment fails at start-up.
 */
export function proxyMatcher(trust: TrustProxy): Trusts {
  if (trust === false) return NONE;
  if (trust === true) return ONE_HOP;
  const list = new net.BlockList();
  for (const raw of trust) {
    const entry = raw.trim();
    const [addr, bits, extra] = entry.split('/');
    const family = net.isIP(addr ?? '');
    if (!family || extra !== undefined) throw new Error(`TRUST_PROXY: "${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      list.addAddress(normalise(addr!), type);
    } else {
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`TRUST_PROXY: "${entry}" has a bad prefix length`);
      list.addSubnet(normalise(addr!), prefix, type);
    }
  }
  return (address) => {
    const a = normalise(address);
    const family = net.isIP(a);
    return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** Sets which proxies `app` believes (`createApp` calls it with `config.trustProxy`). */
export function trustProxies(app: object, trust: TrustProxy): void {
  trustOf.set(app, proxyMatcher(trust));
}

function peerOf(ctx: ProxiedRequest): string {
  return normalise(ctx.req.socket.remoteAddress ?? '');
}

function trusts(ctx: ProxiedRequest): Trusts {
  return trustOf.get(ctx.app) ?? NONE;
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then the
 * `X-Forwarded-For` entries are walked from the right (the entry the nearest proxy wrote)
 * past every trusted proxy, and the first untrusted one is the client (with `TRUST_PROXY=1`:
 * the rightmost entry). An address a client wrote itself further left is never believed.
 * Use this, never `ctx.ip`, for anything keyed by address (sign-in throttle, logs).
 */
export function clientAddress(ctx: ProxiedRequest): string {
  const peer = peerOf(ctx);
  const trusted = trusts(ctx);
  if (!trusted(peer)) return peer;
  const hops = ctx
    .get('x-forwarded-for')
    .split(',')
    .map((s) => normalise(s))
    .filter((s) => net.isIP(s) !== 0);
  if (hops.length === 0) return peer;
  if (trusted === ONE_HOP) return hops[hops.length - 1]!;
  for (let i = hops.length - 1; i > 0; i--) if (!trusted(hops[i]!)) return hops[i]!;
  return hops[0]!;
}

/**
 * True when the client reached us over https: a TLS socket, or a trusted proxy's
 * `X-Forwarded-Proto` (its first entry, the scheme the client used) saying `https`.
 * An untrusted peer's `X-Forwarded-Proto` is ignored.
 */
export function isHttps(ctx: ProxiedRequest): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trusts(ctx)(peerOf(ctx))) return false;
  const proto = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/** `https` or `http`, as {@link isHttps} decides. */
export function requestProtocol(ctx: ProxiedRequest): 'http' | 'https' {
  return isHttps(ctx) ? 'https' : 'http';
}
