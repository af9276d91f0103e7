import { describe, expect, it } from 'vitest';
import { LAYOUT_SCHEMA_VERSION, MODELLING_PANEL_RENAMES, layoutStorageKey, parseLayout, readLayout, renamePanels, writeLayout } from './layout-store';

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
    expect(r).toMatchObject({ kind: 'ok', migratedBy: ['wrap-raw-dockview', 'add-layout-id-and-saved-at', 'rename-modelling-panels-per-area'] });
    if (r.kind === 'ok') expect(r.doc.dockview).toEqual(dockview);
  });

  it('migrates v1', () => {
    const r = parseLayout(JSON.stringify({ schemaVersion: 1, dockview }), '/d');
    expect(r).toMatchObject({ kind: 'ok', migratedBy: ['add-layout-id-and-saved-at', 'rename-modelling-panels-per-area'], doc: { layoutId: '/d' } });
  });

  it('opens a layout saved with the modelling plugin\'s panel ids with the per-area ids', () => {
    // As dockview saved it before the split (schema 2): two groups, a floating one, an active panel.
    const old = {
      grid: {
        root: {
          type: 'branch',
          data: [
            { type: 'leaf', data: { views: ['modelling.environments', 'modelling.environmentTrain'], activeView: 'modelling.environmentTrain', id: '1' }, size: 500 },
            { type: 'leaf', data: { views: ['modelling.rewards'], activeView: 'modelling.rewards', id: '2' }, size: 300 },
          ],
          size: 600,
        },
        width: 800,
        height: 600,
        orientation: 'HORIZONTAL',
      },
      panels: {
        'modelling.environments': { id: 'modelling.environments', contentComponent: 'modelling.environments', title: 'modelling.environments' },
        'modelling.environmentTrain': { id: 'modelling.environmentTrain', contentComponent: 'modelling.environmentTrain', title: 'Train' },
        'modelling.rewards': { id: 'modelling.rewards', contentComponent: 'modelling.rewards', title: 'Rewards' },
      },
      floatingGroups: [{ data: { views: ['modelling.debug'], activeView: 'modelling.debug', id: '3' }, position: { top: 1, left: 1, width: 100, height: 100 } }],
      activeGroup: '1',
    };
    const known = new Set(['environment.list', 'environment.train', 'reward.list', 'environment.debug']);
    // The old ids alone are unknown panels now.
    expect(parseLayout(JSON.stringify({ schemaVersion: 3, layoutId: '/workflow/simulator', savedAt: '', dockview: old }), '/workflow/simulator', known).kind).toBe('invalid');
    const r = parseLayout(JSON.stringify({ schemaVersion: 2, layoutId: '/workflow/simulator', savedAt: '2026-11-01T00:00:00.000Z', dockview: old }), '/workflow/simulator', known);
    expect(r).toMatchObject({ kind: 'ok', migratedBy: ['rename-modelling-panels-per-area'] });
    if (r.kind !== 'ok') return;
    const d = r.doc.dockview as unknown as typeof old;
    expect(Object.keys(d.panels).sort()).toEqual(['environment.list', 'environment.train', 'reward.list']);
    expect(d.panels['environment.train' as keyof typeof d.panels]).toEqual({ id: 'environment.train', contentComponent: 'environment.train', title: 'Train' });
    // A title is text, even one that reads like an id.
    expect(d.panels['environment.list' as keyof typeof d.panels]).toMatchObject({ id: 'environment.list', title: 'modelling.environments' });
    expect(d.grid.root.data[0]!.data).toEqual({ views: ['environment.list', 'environment.train'], activeView: 'environment.train', id: '1' });
    expect(d.grid.root.data[1]!.data.views).toEqual(['reward.list']);
    expect(d.floatingGroups[0]!.data).toMatchObject({ views: ['environment.debug'], activeView: 'environment.debug' });
    expect(d.activeGroup).toBe('1');
    expect(r.doc.savedAt).toBe('2026-11-01T00:00:00.000Z');
  });

  it('renames every panel of the modelling plugin to an id of its area', () => {
    expect(Object.keys(MODELLING_PANEL_RENAMES)).toHaveLength(13);
    expect(new Set(Object.values(MODELLING_PANEL_RENAMES)).size).toBe(13);
    expect(Object.values(MODELLING_PANEL_RENAMES).every((id) => !id.startsWith('modelling.'))).toBe(true);
    expect(renamePanels({ panels: { other: { id: 'other' } } }, MODELLING_PANEL_RENAMES)).toEqual({ panels: { other: { id: 'other' } } });
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
