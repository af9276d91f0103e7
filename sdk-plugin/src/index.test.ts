import { describe, expect, it } from 'vitest';
import {
  compareLocaleBundles,
  createServiceRef,
  definePlugin,
  definePluginApi,
  DisposableStore,
  Emitter,
  flattenBundle,
  isGuideOn,
  placeholdersOf,
  projectLinkSearch,
  toDisposable,
} from './index';

describe('disposables and events', () => {
  it('disposes once and in reverse order', () => {
    const log: string[] = [];
    const s = new DisposableStore();
    s.add(toDisposable(() => log.push('a')));
    const b = s.add(toDisposable(() => log.push('b')));
    b.dispose();
    s.dispose();
    s.dispose();
    expect(log).toEqual(['b', 'a']);
    s.add(toDisposable(() => log.push('late')));
    expect(log).toEqual(['b', 'a', 'late']);
  });

  it('emits to listeners until they are disposed', () => {
    const e = new Emitter<number>();
    const got: number[] = [];
    const sub = e.event((n) => got.push(n));
    e.fire(1);
    sub.dispose();
    e.fire(2);
    expect(got).toEqual([1]);
    expect(e.listenerCount).toBe(0);
  });
});

describe('service refs and manifests', () => {
  it('requires namespaced ids', () => {
    expect(createServiceRef<number>('projects.repository').id).toBe('projects.repository');
    expect(() => createServiceRef('plain')).toThrow(/namespaced/);
  });

  it('checks plugin ids and contribution prefixes', () => {
    expect(() => definePlugin({ id: 'Bad_Id' })).toThrow(/kebab-case/);
    expect(() => definePlugin({ id: 'p', panels: [{ id: 'q.x', titleKey: 't', load: async () => () => null }] })).toThrow(/p\.<name>/);
    expect(() => definePlugin({ id: 'p', overlays: [{ id: 'q.guide', load: async () => () => null }] })).toThrow(/overlay "q\.guide" .*p\.<name>/);
    expect(() => definePlugin({ id: 'p', menuItems: [{ id: 'p.m', titleKey: 't', location: 'side' }] })).toThrow(/to or command/);
    expect(definePlugin({ id: 'data-access' }).id).toBe('data-access');
  });

  it('requires endpoint names <pluginId>/<verb>', () => {
    expect(() => definePluginApi('good', (b) => ({ 'other/x': b.query<number, void>({ query: () => ({ url: 'x' }) }) }))).toThrow(/good\/<verb>/);
    const builder = (b: Parameters<Parameters<typeof definePluginApi>[1]>[0]) => ({ 'good/list': b.query<number, void>({ query: () => ({ url: 'x' }) }) });
    const api = definePluginApi('good', builder);
    expect(api.endpoints['good/list']).toBeDefined();
    expect(definePluginApi('good', builder)).toBe(api);
  });
});

describe('project links', () => {
  it('carries guide and the project ids, drops other parameters, applies overrides', () => {
    const cur = { guide: 'true', projectId: 'P-1', solutionId: 'S-1', tab: 'x' };
    expect(projectLinkSearch(cur)).toEqual({ guide: 'true', projectId: 'P-1', solutionId: 'S-1' });
    expect(projectLinkSearch(cur, { solutionId: undefined, policyId: 'PT-9' })).toEqual({ guide: 'true', projectId: 'P-1', policyId: 'PT-9' });
  });

  it('turns the guide on unless it is the text false', () => {
    expect(isGuideOn({ guide: '' })).toBe(true);
    expect(isGuideOn({ guide: '1' })).toBe(true);
    expect(isGuideOn({ guide: 'false' })).toBe(false);
    expect(isGuideOn({})).toBe(false);
  });
});

describe('locale helpers', () => {
  it('flattens bundles and reads placeholders', () => {
    expect(flattenBundle({ a: { b: 'x', c: { d: 'y' } } })).toEqual({ 'a.b': 'x', 'a.c.d': 'y' });
    expect(placeholdersOf('{{b}} and {{ a }}')).toEqual(['a', 'b']);
  });

  it('reports differences', () => {
    expect(compareLocaleBundles({ a: 'x' }, { a: 'y' })).toEqual([]);
    expect(compareLocaleBundles({ a: '' }, { a: 'y', b: 'z' })).toEqual(['b: missing in zh-CN', 'a: empty in zh-CN']);
  });
});
