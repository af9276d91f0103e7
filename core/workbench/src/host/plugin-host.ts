/**
 * The plugin host: checks and orders manifests, registers their contributions (locales,
 * endpoints, routes, panels, overlays, menus, commands, settings, templates), activates them in
 * dependency order and disposes them in reverse order.
 */
import type { Dispatch } from '@reduxjs/toolkit';
import {
  DisposableStore,
  Emitter,
  toDisposable,
  type CommandContribution,
  type Disposable,
  type LocaleBundles,
  type MenuItemContribution,
  type OverlayContribution,
  type HeaderItemContribution,
  type PanelContribution,
  type PluginContext,
  type PluginManifest,
  type RouteContribution,
  type ServiceAccessor,
  type ServiceRef,
  type SettingContribution,
  type TemplateContribution,
} from '@decisio/sdk-plugin';
import { orderPlugins, PluginHostError } from './order';

/** A contribution with the id of the plugin that made it. */
export type Owned<T> = T & { pluginId: string };

/** What the host needs from the rest of the workbench. */
export interface PluginHostOptions {
  /** Services the workbench provides (by ref id). */
  hostServices?: ReadonlyMap<string, unknown>;
  dispatch?: Dispatch;
  /** Registers a plugin's translation bundles as namespace `ns`. */
  registerLocales?(ns: string, bundles: LocaleBundles): void;
  /** Injects a plugin's endpoints into the base api. */
  injectEndpoints?(pluginId: string, builder: NonNullable<PluginManifest['endpoints']>): void;
  /** Translates `key` of namespace `ns`. */
  translate?(ns: string, key: string, params?: Record<string, unknown>): string;
}

/** Registry of services: the host's and those provided by plugins. */
class ServiceRegistry implements ServiceAccessor {
  private readonly map = new Map<string, unknown>();
  constructor(initial: ReadonlyMap<string, unknown>) {
    for (const [k, v] of initial) this.map.set(k, v);
  }
  set(id: string, impl: unknown): void {
    this.map.set(id, impl);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
  has(id: string): boolean {
    return this.map.has(id);
  }
  get<T>(ref: ServiceRef<T>): T {
    if (!this.map.has(ref.id)) throw new Error(`service "${ref.id}" is not provided`);
    return this.map.get(ref.id) as T;
  }
  getOptional<T>(ref: ServiceRef<T>): T | undefined {
    return this.map.get(ref.id) as T | undefined;
  }
}

/**
 * Holds the plugins of a workbench.
 *
 * Lifecycle: `register(plugins)` (synchronous: checks, orders, registers contributions) then
 * `activate()` (runs `activate` of each plugin in order) and finally `dispose()`.
 */
export class PluginHost implements Disposable {
  /** Services of the host and of activated plugins. */
  readonly services: ServiceAccessor;
  private readonly registry: ServiceRegistry;
  private readonly disposables = new DisposableStore();
  private ordered: PluginManifest[] = [];
  private readonly activated: string[] = [];
  private readonly didActivate = new Emitter<string>();
  /** Fires with the plugin id after each plugin's `activate` resolved. */
  readonly onDidActivatePlugin = this.didActivate.event;

  /** Contributions by kind, in plugin order. */
  readonly routes: Owned<RouteContribution>[] = [];
  readonly panels: Owned<PanelContribution>[] = [];
  readonly overlays: Owned<OverlayContribution>[] = [];
  readonly headerItems: Owned<HeaderItemContribution>[] = [];
  readonly menuItems: Owned<MenuItemContribution>[] = [];
  readonly commands: Owned<CommandContribution>[] = [];
  readonly settings: Owned<SettingContribution>[] = [];
  readonly templates: Owned<TemplateContribution>[] = [];

  constructor(private readonly options: PluginHostOptions = {}) {
    this.registry = new ServiceRegistry(options.hostServices ?? new Map());
    this.services = this.registry;
  }

  /** The plugins in activation order (after `register`). */
  get plugins(): readonly PluginManifest[] {
    return this.ordered;
  }

  /**
   * Checks, orders and registers contributions.
   * @throws PluginHostError on a duplicate plugin id, a duplicate provider, a missing provider,
   *   a cycle, or two plugins contributing the same route path, panel, overlay, command, menu item or setting id.
   */
  register(plugins: readonly PluginManifest[]): void {
    const hostIds = new Set(this.options.hostServices?.keys() ?? []);
    this.ordered = orderPlugins(plugins, hostIds);
    const seen = new Map<string, string>();
    const claim = (kind: string, key: string, pluginId: string) => {
      const k = `${kind}:${key}`;
      const other = seen.get(k);
      if (other) {
        throw new PluginHostError('duplicate-contribution', `${kind} "${key}" is contributed by both "${other}" and "${pluginId}"`);
      }
      seen.set(k, pluginId);
    };
    for (const p of this.ordered) {
      const own = <T extends object>(x: T): Owned<T> => ({ ...x, pluginId: p.id });
      for (const r of p.routes ?? []) {
        claim('route', r.path, p.id);
        this.routes.push(own(r));
      }
      for (const x of p.panels ?? []) {
        claim('panel', x.id, p.id);
        this.panels.push(own(x));
      }
      for (const x of p.overlays ?? []) {
        claim('overlay', x.id, p.id);
        this.overlays.push(own(x));
      }
      for (const x of p.headerItems ?? []) {
        claim('header item', x.id, p.id);
        this.headerItems.push(own(x));
      }
      for (const x of p.menuItems ?? []) {
        claim('menu item', x.id, p.id);
        this.menuItems.push(own(x));
      }
      for (const x of p.commands ?? []) {
        claim('command', x.id, p.id);
        this.commands.push(own(x));
      }
      for (const x of p.settings ?? []) {
        claim('setting', x.id, p.id);
        this.settings.push(own(x));
      }
      for (const x of p.templates ?? []) {
        claim('template', x.id, p.id);
        this.templates.push(own(x));
      }
      if (p.locales) this.options.registerLocales?.(p.id, p.locales);
      if (p.endpoints) this.options.injectEndpoints?.(p.id, p.endpoints);
    }
  }

  /**
   * Activates every registered plugin in order. A plugin must provide every service of its
   * `provides` during `activate`.
   * @throws PluginHostError `activation-failed` (with the plugin's error as `cause`) or `provide-mismatch`.
   */
  async activate(): Promise<void> {
    for (const p of this.ordered) {
      const store = this.disposables.add(new DisposableStore());
      const declared = new Set((p.provides ?? []).map((r) => r.id));
      const provided = new Set<string>();
      const ctx: PluginContext = {
        pluginId: p.id,
        services: this.registry,
        provide: (ref, impl) => {
          if (!declared.has(ref.id)) {
            throw new PluginHostError('provide-mismatch', `plugin "${p.id}" provides "${ref.id}" without declaring it in provides`);
          }
          if (provided.has(ref.id)) {
            throw new PluginHostError('provide-mismatch', `plugin "${p.id}" provided "${ref.id}" twice`);
          }
          provided.add(ref.id);
          this.registry.set(ref.id, impl);
          store.add(toDisposable(() => this.registry.delete(ref.id)));
        },
        subscribe: (d) => void store.add(d),
        dispatch: this.options.dispatch ?? ((a) => a),
        t: (key, params) => this.options.translate?.(p.id, key, params) ?? key,
      };
      if (p.activate) {
        try {
          const result = await p.activate(ctx);
          if (result) store.add(result);
        } catch (e) {
          throw new PluginHostError('activation-failed', `plugin "${p.id}" failed to activate: ${(e as Error)?.message ?? e}`, { cause: e });
        }
      }
      for (const id of declared) {
        if (!provided.has(id)) {
          throw new PluginHostError('provide-mismatch', `plugin "${p.id}" declares "${id}" in provides but did not provide it`);
        }
      }
      this.activated.push(p.id);
      this.didActivate.fire(p.id);
    }
  }

  /** Ids of the plugins activated so far, in order. */
  get activatedPlugins(): readonly string[] {
    return this.activated;
  }

  /** Deactivates plugins in reverse order. */
  dispose(): void {
    this.disposables.dispose();
    this.didActivate.dispose();
  }
}
