/**
 * The dock layout of a route: dockview (vanilla) driven from React. Panels are plugin
 * contributions loaded with `import()` on first show and rendered through portals, so they
 * share the app's React tree (store, i18n, services). Panels can be split, tabbed, floated and
 * maximised; the layout is saved per user and route and restored after a reload, falling back
 * to the default layout with a visible notice when the saved one cannot be used.
 */
import { Component, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import 'dockview/dist/styles/dockview.css';
import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import {
  createDockview,
  themeDark,
  themeLight,
  type DockviewApi,
  type DockviewGroupPanel,
  type DockviewOptions,
  type GroupPanelPartInitParameters,
  type IContentRenderer,
  type IGroupHeaderProps,
  type IHeaderActionsRenderer,
} from 'dockview';
import type { DefaultPanelPlacement, PanelContribution, PanelProps, ThemeName } from '@decisio/sdk-plugin';
import type { Owned } from '../host/plugin-host';
import { useWorkbenchT } from '../i18n/i18n';
import { clearLayout, readLayout, writeLayout } from './layout-store';
import { PermissionGate } from './PermissionGate';

/** Controls a mounted dock layout (used by the layout service). */
export interface DockController {
  openPanel(panelId: string, options?: { params?: Record<string, unknown>; floating?: boolean }): void;
  reset(): void;
  readonly api: DockviewApi;
}

/** Props of {@link DockLayout}. */
export interface DockLayoutProps {
  /** Id of the layout (the route path). */
  layoutId: string;
  /** Panels of the default layout. */
  defaultPanels: readonly (string | DefaultPanelPlacement)[];
  /** Every known panel contribution. */
  panels: readonly Owned<PanelContribution>[];
  userId: string | null;
  theme: ThemeName;
  /** Translates `ns:key` (panel titles). */
  translate(key: string): string;
  storage?: Storage;
  /** Called with a controller once the layout is built, and with `null` on unmount. */
  onController?(c: DockController | null): void;
  /** Called after each layout change (after the save). */
  onDidLayoutChange?(): void;
  /** Save debounce in ms (default 250). */
  saveDelayMs?: number;
}

const lazyCache = new WeakMap<PanelContribution, ComponentType<PanelProps>>();
function lazyPanel(c: PanelContribution): ComponentType<PanelProps> {
  let C = lazyCache.get(c);
  if (!C) {
    C = lazy(() => c.load().then((comp) => ({ default: comp })));
    lazyCache.set(c, C);
  }
  return C;
}

class PanelErrorBoundary extends Component<{ fallback: (e: unknown) => ReactNode; children?: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error !== undefined ? this.props.fallback(this.state.error) : this.props.children;
  }
}

function PanelBody(props: { contribution: Owned<PanelContribution> | undefined; panelId: string; name: string; params?: Record<string, unknown> }) {
  const { t } = useWorkbenchT();
  if (!props.contribution) {
    return <NonIdealState icon="help" title={t('layout.unknownPanel', { id: props.name })} />;
  }
  const Lazy = lazyPanel(props.contribution);
  const body = <Lazy panelId={props.panelId} params={props.params} />;
  return (
    <div className="dc-panel" data-testid={`panel-${props.contribution.id}`}>
      <PanelErrorBoundary fallback={(e) => <NonIdealState icon="error" title={t('layout.panelFailed')} description={String((e as Error)?.message ?? e)} />}>
        <Suspense fallback={<NonIdealState icon={<Spinner size={32} />} description={t('layout.panelLoading')} />}>
          {props.contribution.permissions?.length ? <PermissionGate needs={props.contribution.permissions}>{body}</PermissionGate> : body}
        </Suspense>
      </PanelErrorBoundary>
    </div>
  );
}

function GroupActions(props: { group: DockviewGroupPanel; api: DockviewApi }) {
  const { t } = useWorkbenchT();
  const { group, api } = props;
  const floating = group.api.location.type === 'floating';
  return (
    <div className="dc-group-actions">
      {!floating && (
        <Button
          variant="minimal"
          size="small"
          icon="applications"
          aria-label={t('layout.float')}
          title={t('layout.float')}
          data-testid="dock-float"
          onClick={() => {
            const panel = group.activePanel;
            if (panel) api.addFloatingGroup(panel, { position: { top: 60, left: 60 }, width: 420, height: 320 });
          }}
        />
      )}
      <Button
        variant="minimal"
        size="small"
        icon={group.api.isMaximized() ? 'minimize' : 'maximize'}
        aria-label={t('layout.maximize')}
        title={t('layout.maximize')}
        data-testid="dock-maximize"
        onClick={() => (group.api.isMaximized() ? group.api.exitMaximized() : group.api.maximize())}
      />
    </div>
  );
}

/** dockview's catalog of accessibility strings (its `DockviewMessages`, which the package does not export by name). */
type DockviewMessages = Required<NonNullable<DockviewOptions['messages']>>;
type WorkbenchT = ReturnType<typeof useWorkbenchT>['t'];
type DockSide = 'top' | 'bottom' | 'left' | 'right';

/**
 * Every string dockview speaks to assistive technology (its live-region announcements, the
 * tabs' close buttons, the keyboard-docking narration), translated with the workbench's
 * `layout.dock.*` keys; `currentT` is read on each call, so the one catalog given to dockview
 * follows the language.
 */
export function dockMessages(currentT: () => WorkbenchT): DockviewMessages {
  const t = (key: Parameters<WorkbenchT>[0], params?: Record<string, unknown>) => currentT()(key, params);
  const side = (p: string) => t(`layout.dock.side.${p as DockSide}`);
  return {
    panelOpened: (title) => t('layout.dock.panelOpened', { title }),
    panelClosed: (title) => t('layout.dock.panelClosed', { title }),
    groupMaximized: (title) => t('layout.dock.groupMaximized', { title }),
    groupRestored: (title) => t('layout.dock.groupRestored', { title }),
    groupFloated: (title) => t('layout.dock.groupFloated', { title }),
    groupDocked: (title) => t('layout.dock.groupDocked', { title }),
    groupPoppedOut: (title) => t('layout.dock.groupPoppedOut', { title }),
    closeTab: (title) => t('layout.dock.closeTab', { title }),
    closeTabPlain: () => t('layout.dock.closeTabPlain'),
    movePickTarget: (source, target, current, total) => t('layout.dock.movePickTarget', { source, target, current, total }),
    movePickEdge: (position, target) =>
      position === 'center' ? t('layout.dock.movePickEdgeCenter', { target }) : t('layout.dock.movePickEdgeSide', { target, side: side(position) }),
    moveCommitted: (source, target, position) =>
      position === 'center'
        ? t('layout.dock.moveCommittedCenter', { source, target })
        : t('layout.dock.moveCommittedSide', { source, target, side: side(position) }),
    moveCancelled: () => t('layout.dock.moveCancelled'),
    moveNotAllowed: () => t('layout.dock.moveNotAllowed'),
    moveFloated: (source) => t('layout.dock.moveFloated', { source }),
  };
}

interface Portal {
  key: string;
  element: HTMLElement;
  node: () => ReactNode;
}

/** The dock layout component (see the module comment). */
export function DockLayout(props: DockLayoutProps) {
  const { t } = useWorkbenchT();
  const tRef = useRef(t);
  tRef.current = t;
  const messages = useMemo(() => dockMessages(() => tRef.current), []);
  const hostRef = useRef<HTMLDivElement>(null);
  const apiRef = useRef<DockviewApi | null>(null);
  const [portals, setPortals] = useState<Map<string, Portal>>(() => new Map());
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const propsRef = useRef(props);
  propsRef.current = props;

  const byId = useMemo(() => new Map(props.panels.map((p) => [p.id, p])), [props.panels]);
  const byIdRef = useRef(byId);
  byIdRef.current = byId;

  const addPortal = useCallback((p: Portal) => setPortals((m) => new Map(m).set(p.key, p)), []);
  const removePortal = useCallback(
    (key: string) =>
      setPortals((m) => {
        if (!m.has(key)) return m;
        const n = new Map(m);
        n.delete(key);
        return n;
      }),
    [],
  );

  const titleOf = useCallback((c: Owned<PanelContribution>) => propsRef.current.translate(`${c.pluginId}:${c.titleKey}`), []);

  useEffect(() => {
    const el = hostRef.current;
    if (!el) return;
    const storage = props.storage ?? localStorage;
    const { layoutId, userId } = props;
    let seq = 0;
    const api = createDockview(el, {
      theme: props.theme === 'dark' ? themeDark : themeLight,
      disableAutoResizing: typeof ResizeObserver === 'undefined',
      messages,
      createComponent: (options) => {
        const element = document.createElement('div');
        element.className = 'dc-panel-host';
        const key = `c${++seq}:${options.id}`;
        const renderer: IContentRenderer = {
          element,
          init: (params: GroupPanelPartInitParameters) => {
            const name = options.name;
            addPortal({
              key,
              element,
              node: () => (
                <PanelBody contribution={byIdRef.current.get(name)} name={name} panelId={options.id} params={params.params as Record<string, unknown>} />
              ),
            });
          },
          dispose: () => removePortal(key),
        };
        return renderer;
      },
      createRightHeaderActionComponent: (group) => {
        const element = document.createElement('div');
        const key = `h${++seq}:${group.id}`;
        const renderer: IHeaderActionsRenderer = {
          element,
          init: (_p: IGroupHeaderProps) => {
            addPortal({ key, element, node: () => <GroupActions group={group} api={api} /> });
          },
          dispose: () => removePortal(key),
        };
        return renderer;
      },
    });
    apiRef.current = api;

    const buildDefault = () => {
      api.clear();
      let prev: string | undefined;
      for (const d of propsRef.current.defaultPanels) {
        const place = typeof d === 'string' ? { panel: d } : d;
        const c = byIdRef.current.get(place.panel);
        if (!c) continue;
        if (place.floating) {
          api.addPanel({ id: c.id, component: c.id, title: titleOf(c), floating: true });
        } else if (prev) {
          const dir = place.direction ?? 'within';
          const size = place.size && (dir === 'left' || dir === 'right' ? { initialWidth: place.size } : dir === 'within' ? {} : { initialHeight: place.size });
          api.addPanel({ id: c.id, component: c.id, title: titleOf(c), position: { referencePanel: prev, direction: dir }, ...size });
        } else {
          api.addPanel({ id: c.id, component: c.id, title: titleOf(c) });
        }
        prev = c.id;
      }
    };

    const saved = readLayout(storage, userId, layoutId, new Set(byIdRef.current.keys()));
    if (saved.kind === 'ok') {
      try {
        api.fromJSON(saved.doc.dockview);
        if (api.panels.length === 0) throw new Error('restored layout has no panels');
        for (const p of api.panels) {
          const c = byIdRef.current.get(p.api.component);
          if (c) p.setTitle(titleOf(c));
        }
      } catch (e) {
        console.warn(`[workbench] saved layout "${layoutId}" failed to load, using the default`, e);
        clearLayout(storage, userId, layoutId);
        buildDefault();
        setNotice('layout.restoreFailed');
      }
    } else {
      if (saved.kind === 'invalid') {
        console.warn(`[workbench] saved layout "${layoutId}" is invalid (${saved.reason}), using the default`);
        clearLayout(storage, userId, layoutId);
        setNotice('layout.restoreFailed');
      }
      buildDefault();
    }

    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      timer = undefined;
      if (api.panels.length === 0) clearLayout(storage, userId, layoutId);
      else writeLayout(storage, userId, layoutId, api.toJSON());
      propsRef.current.onDidLayoutChange?.();
    };
    const sub = api.onDidLayoutChange(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(save, propsRef.current.saveDelayMs ?? 250);
      setVersion((v) => v + 1);
    });
    // A reload or a closed tab does not unmount React: flush a pending save first.
    const flush = () => {
      if (timer) {
        clearTimeout(timer);
        save();
      }
    };
    if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);

    const controller: DockController = {
      api,
      openPanel: (panelId, options) => {
        const existing = api.getPanel(panelId);
        if (existing) {
          existing.api.setActive();
          return;
        }
        const c = byIdRef.current.get(panelId);
        if (!c) throw new Error(`unknown panel "${panelId}"`);
        api.addPanel({ id: c.id, component: c.id, title: titleOf(c), params: options?.params, ...(options?.floating ? { floating: true } : {}) });
      },
      reset: () => {
        clearLayout(storage, userId, layoutId);
        buildDefault();
        setNotice(null);
      },
    };
    propsRef.current.onController?.(controller);

    return () => {
      if (typeof window !== 'undefined') window.removeEventListener('pagehide', flush);
      flush();
      sub.dispose();
      propsRef.current.onController?.(null);
      apiRef.current = null;
      api.dispose();
    };
    // The dock is rebuilt only when the route or the user changes.
    }, [props.layoutId, props.userId]);

  useEffect(() => {
    apiRef.current?.updateOptions({ theme: props.theme === 'dark' ? themeDark : themeLight });
  }, [props.theme]);

  // Retitle panels when the language changes, and rename their close buttons: dockview renames
  // one only when its title changes, and a title can read the same in both languages.
  useEffect(() => {
    const api = apiRef.current;
    if (!api) return;
    for (const p of api.panels) {
      const c = byId.get(p.api.component);
      if (c) p.setTitle(titleOf(c));
      const close = p.view.tab.element.querySelector('.dv-default-tab-action');
      close?.setAttribute('aria-label', p.title ? messages.closeTab(p.title) : messages.closeTabPlain());
    }
  }, [props.translate, byId, titleOf, t, messages]);

  return (
    <div className="dc-dock">
      {notice && (
        <Callout intent="warning" icon="warning-sign" className="dc-dock-notice" data-testid="layout-fallback-notice">
          <span>{t(notice as 'layout.restoreFailed')}</span>
          <Button variant="minimal" size="small" icon="cross" aria-label={t('settings.cancel')} onClick={() => setNotice(null)} />
        </Callout>
      )}
      <div className="dc-dock-host" ref={hostRef} data-testid="dock-layout" data-layout-version={version} />
      {[...portals.values()].map((p) => createPortal(p.node(), p.element, p.key))}
    </div>
  );
}
