import { describe, expect, it } from 'vitest';
import { LAYOUT_SCHEMA_VERSION, layoutStorageKey, parseLayout, readLayout, writeLayout } from './layout-store';

const dockview = {
  grid: { root: { type: 'branch', data: [] }, height: 100, width: 100, orientation: 'HORIZONTAL' },
  panels: { 'demo.a': { id: 'demo.a', contentComponent: 'demo.a', title: 'A' } },
  activeGroup: undefined,
};

describe('layout store', () => {
  it('keys layouts per user and route', () => {
    expect(layoutStorageKey('u1', '/dashboard')).toBe('decisio.layout.u1./dashboard');
    expect(layoutStorageKey(null, '/x')).toBe('decisio.layout.anonymous./x');
  });

  it('writes the current schema version and reads it back', () => {
    const s = new Map<string, string>();
    const storage = { getItem: (k: string) => s.get(k) ?? null, setItem: (k: string, v: string) => void s.set(k, v) };
    writeLayout(storage, 'u1', '/d', dockview as never, new Date('2026-01-01T00:00:00Z'));
    const r = readLayout(storage, 'u1', '/d');
    expect(r).toMatchObject({ kind: 'ok', migratedBy: [], doc: { schemaVersion: LAYOUT_SCHEMA_VERSION, layoutId: '/d' } });
    expect(readLayout(storage, 'u2', '/d')).toEqual({ kind: 'none' });
  });

  it('migrates a raw v0 document through every named step', () => {
    const r = parseLayout(JSON.stringify(dockview), '/d');
    expect(r).toMatchObject({ kind: 'ok', migratedBy: ['wrap-raw-dockview', 'add-layout-id-and-saved-at'] });
    if (r.kind === 'ok') expect(r.doc.dockview).toEqual(dockview);
  });

  it('migrates v1', () => {
    const r = parseLayout(JSON.stringify({ schemaVersion: 1, dockview }), '/d');
    expect(r).toMatchObject({ kind: 'ok', migratedBy: ['add-layout-id-and-saved-at'], doc: { layoutId: '/d' } });
  });

  it.each([
    ['not JSON', '{oops'],
    ['newer version', JSON.stringify({ schemaVersion: 99, dockview })],
    ['not a layout', JSON.stringify({ schemaVersion: 2, dockview: { hello: 1 } })],
    ['no panels', JSON.stringify({ schemaVersion: 2, dockview: { ...dockview, panels: {} } })],
  ])('reports %s as invalid', (_, text) => {
    expect(parseLayout(text, '/d').kind).toBe('invalid');
  });

  it('rejects layouts naming panels that no plugin contributes', () => {
    const r = parseLayout(JSON.stringify(dockview), '/d', new Set(['other.panel']));
    expect(r).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('demo.a') });
  });
});
