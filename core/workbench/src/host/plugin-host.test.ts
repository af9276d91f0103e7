import { describe, expect, it } from 'vitest';
import { createServiceRef, definePlugin } from '@decisio/sdk-plugin';
import { orderPlugins, PluginHostError } from './order';
import { PluginHost } from './plugin-host';

const aRef = createServiceRef<{ hello(): string }>('a.service');
const bRef = createServiceRef<{ twice(): string }>('b.service');
const cRef = createServiceRef<number>('c.service');

function catchErr(fn: () => unknown): PluginHostError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PluginHostError);
    return e as PluginHostError;
  }
  throw new Error('expected an error');
}

describe('orderPlugins', () => {
  it('puts providers before consumers and keeps input order otherwise', () => {
    const c = definePlugin({ id: 'c', requires: [bRef] });
    const b = definePlugin({ id: 'b', requires: [aRef], provides: [bRef] });
    const a = definePlugin({ id: 'a', provides: [aRef] });
    const z = definePlugin({ id: 'z' });
    expect(orderPlugins([z, c, b, a]).map((p) => p.id)).toEqual(['z', 'a', 'b', 'c']);
  });

  it('orders optional dependencies when present and ignores them when absent', () => {
    const user = definePlugin({ id: 'user', optional: [aRef, cRef] });
    const a = definePlugin({ id: 'a', provides: [aRef] });
    expect(orderPlugins([user, a]).map((p) => p.id)).toEqual(['a', 'user']);
  });

  it('fails on a duplicate id', () => {
    const e = catchErr(() => orderPlugins([definePlugin({ id: 'x' }), definePlugin({ id: 'x' })]));
    expect(e.kind).toBe('duplicate-id');
    expect(e.message).toContain('"x"');
  });

  it('fails on a missing provider, naming plugin and service', () => {
    const e = catchErr(() => orderPlugins([definePlugin({ id: 'needy', requires: [aRef] })]));
    expect(e.kind).toBe('missing-provider');
    expect(e.message).toContain('needy');
    expect(e.message).toContain('a.service');
  });

  it('accepts services the host provides', () => {
    const p = definePlugin({ id: 'p', requires: [aRef] });
    expect(orderPlugins([p], new Set(['a.service']))).toHaveLength(1);
  });

  it('fails on a cycle and prints it', () => {
    const a = definePlugin({ id: 'a', provides: [aRef], requires: [bRef] });
    const b = definePlugin({ id: 'b', provides: [bRef], requires: [aRef] });
    const e = catchErr(() => orderPlugins([a, b]));
    expect(e.kind).toBe('cycle');
    expect(e.message).toMatch(/a -> b -> a|b -> a -> b/);
  });

  it('fails on two providers of one service', () => {
    const e = catchErr(() =>
      orderPlugins([definePlugin({ id: 'a1', provides: [aRef] }), definePlugin({ id: 'a2', provides: [aRef] })]),
    );
    expect(e.kind).toBe('duplicate-provider');
  });
});

describe('PluginHost', () => {
  it('activates in order, wires services and disposes in reverse', async () => {
    const log: string[] = [];
    const a = definePlugin({
      id: 'a',
      provides: [aRef],
      activate(ctx) {
        log.push('activate a');
        ctx.provide(aRef, { hello: () => 'hi' });
        return { dispose: () => log.push('dispose a') };
      },
    });
    const b = definePlugin({
      id: 'b',
      requires: [aRef],
      provides: [bRef],
      activate(ctx) {
        log.push('activate b');
        const svc = ctx.services.get(aRef);
        ctx.provide(bRef, { twice: () => svc.hello() + svc.hello() });
        ctx.subscribe({ dispose: () => log.push('dispose b') });
      },
    });
    const host = new PluginHost();
    host.register([b, a]);
    await host.activate();
    expect(host.services.get(bRef).twice()).toBe('hihi');
    expect(host.activatedPlugins).toEqual(['a', 'b']);
    host.dispose();
    expect(log).toEqual(['activate a', 'activate b', 'dispose b', 'dispose a']);
    expect(host.services.getOptional(aRef)).toBeUndefined();
  });

  it('collects contributions with their owner and registers locales and endpoints', () => {
    const locales: string[] = [];
    const endpoints: string[] = [];
    const host = new PluginHost({
      registerLocales: (ns) => locales.push(ns),
      injectEndpoints: (id) => endpoints.push(id),
    });
    const p = definePlugin({
      id: 'demo',
      routes: [{ path: '/demo', titleKey: 'title', panels: ['demo.main'] }],
      panels: [{ id: 'demo.main', titleKey: 'title', load: async () => () => null }],
      overlays: [{ id: 'demo.tour', kind: 'guide', load: async () => () => null }],
      commands: [{ id: 'demo.run', titleKey: 'title', run: () => 1 }],
      locales: { 'zh-CN': { title: '演示' }, 'en-US': { title: 'Demo' } },
      endpoints: () => ({}),
    });
    host.register([p]);
    expect(host.routes[0]).toMatchObject({ path: '/demo', pluginId: 'demo' });
    expect(host.panels.map((x) => x.id)).toEqual(['demo.main']);
    expect(host.overlays).toMatchObject([{ id: 'demo.tour', kind: 'guide', pluginId: 'demo' }]);
    expect(host.commands.map((x) => x.id)).toEqual(['demo.run']);
    expect(locales).toEqual(['demo']);
    expect(endpoints).toEqual(['demo']);
  });

  it('fails on two plugins contributing the same route path', () => {
    const host = new PluginHost();
    const load = async () => () => null;
    const e = catchErr(() =>
      host.register([
        definePlugin({ id: 'one', routes: [{ path: '/same', titleKey: 't', load }] }),
        definePlugin({ id: 'two', routes: [{ path: '/same', titleKey: 't', load }] }),
      ]),
    );
    expect(e.kind).toBe('duplicate-contribution');
  });

  it('fails on two registrations of the same overlay id', () => {
    const overlay = { id: 'one.tour', load: async () => () => null };
    const e = catchErr(() => new PluginHost().register([definePlugin({ id: 'one', overlays: [overlay, overlay] })]));
    expect(e.kind).toBe('duplicate-contribution');
    expect(e.message).toMatch(/overlay "one\.tour"/);
  });

  it('fails when a plugin does not provide what it declares', async () => {
    const host = new PluginHost();
    host.register([definePlugin({ id: 'liar', provides: [cRef] })]);
    await expect(host.activate()).rejects.toMatchObject({ kind: 'provide-mismatch' });
  });

  it('wraps activation errors with the plugin id', async () => {
    const host = new PluginHost();
    host.register([
      definePlugin({
        id: 'boom',
        activate() {
          throw new Error('kaput');
        },
      }),
    ]);
    await expect(host.activate()).rejects.toThrow(/boom.*kaput/);
  });
});

describe('definePlugin', () => {
  it('rejects contributions not prefixed with the plugin id', () => {
    expect(() => definePlugin({ id: 'p', commands: [{ id: 'other.x', titleKey: 't', run: () => 0 }] })).toThrow(/p\.<name>/);
  });
  it('rejects a route with both load and panels', () => {
    expect(() =>
      definePlugin({ id: 'p', routes: [{ path: '/x', titleKey: 't', panels: [], load: async () => () => null }] }),
    ).toThrow(/exactly one/);
  });
});
