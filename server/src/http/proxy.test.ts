import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { clientAddress, isHttps, trustProxies, type TrustProxy } from './proxy';

/** A request as the helpers see it: a peer address, headers, an app. */
function request(trust: TrustProxy, peer: string, headers: Record<string, string> = {}, encrypted = false) {
  const app = {};
  trustProxies(app, trust);
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { app, req: { socket: { remoteAddress: peer, encrypted } } as unknown as IncomingMessage, get: (f: string) => lower[f.toLowerCase()] ?? '' };
}

describe('proxy trust', () => {
  it('believes nobody by default: the socket decides the address and the scheme', () => {
    const r = request(false, '::ffff:198.51.100.4', { 'X-Forwarded-For': '203.0.113.1', 'X-Forwarded-Proto': 'https' });
    expect(clientAddress(r)).toBe('198.51.100.4');
    expect(isHttps(r)).toBe(false);
    expect(isHttps(request(false, '198.51.100.4', {}, true))).toBe(true);
  });

  it('TRUST_PROXY=1: the one proxy in front, the client is the entry it appended', () => {
    const r = request(true, '10.1.1.1', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.7', 'X-Forwarded-Proto': 'https' });
    expect(clientAddress(r)).toBe('203.0.113.7');
    expect(isHttps(r)).toBe(true);
    expect(clientAddress(request(true, '10.1.1.1'))).toBe('10.1.1.1');
  });

  it('a list: only listed peers are believed, and X-Forwarded-For is walked past every listed proxy', () => {
    const list = ['10.0.0.0/8', '2001:db8::1'];
    const chain = { 'X-Forwarded-For': '6.6.6.6, 203.0.113.7, 10.2.3.4', 'X-Forwarded-Proto': 'https' };
    expect(clientAddress(request(list, '10.9.9.9', chain))).toBe('203.0.113.7');
    expect(clientAddress(request(list, '2001:db8::1', chain))).toBe('203.0.113.7');
    expect(isHttps(request(list, '10.9.9.9', chain))).toBe(true);
    // A peer outside the list (the client itself) is not believed.
    expect(clientAddress(request(list, '198.51.100.4', chain))).toBe('198.51.100.4');
    expect(isHttps(request(list, '198.51.100.4', chain))).toBe(false);
    // Garbage entries are skipped; a chain of proxies only ends at its leftmost entry.
    expect(clientAddress(request(list, '10.9.9.9', { 'X-Forwarded-For': 'nonsense, 10.2.3.4' }))).toBe('10.2.3.4');
  });

  it('TRUST_PROXY is parsed at start-up; a malformed entry stops it', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.2' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.2']);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.local' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });
});
