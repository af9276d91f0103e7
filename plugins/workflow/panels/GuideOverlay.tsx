/**
 * The guide overlay (spec platform §2: shown when the query parameter `guide` is present and is
 * not the text `false`): a step guide through a first run. It lists the workflow's steps in
 * order with the current screen's step highlighted, says in one sentence what to do on this
 * screen, "Next step" opens the next step's screen keeping the project link and the guide flag,
 * and "End the guide" drops the flag. It is a bar docked at the bottom of the window that
 * collapses to its title line (kept across pages); Escape collapses it, inside it or anywhere on
 * the page that does not use Escape itself (dialogs, popovers, menus, code editors). It asks the
 * shell to end the pages above it (`--dc-overlay-inset-bottom`, its measured height), so it
 * covers nothing (tables such as a service's call records included) and the pages keep their
 * full width.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Card, Classes, Icon } from '@blueprintjs/core';
import { navigationServiceRef, useAppLocation, useProjectLink, useService } from '@decisio/sdk-plugin';
import { useWorkflowT } from '../i18n';
import { GUIDE_STEPS, guideStepIndex, nextGuideStep, showsGuide } from '../model/guide';
import './workflow.css';

/** Local-storage key of the collapsed state. */
export const GUIDE_COLLAPSED_KEY = 'decisio.workflow.guideCollapsed';

/** The shell's property for the room an overlay takes at the bottom (see core/workbench's `.dc-console`). */
export const GUIDE_INSET_PROPERTY = '--dc-overlay-inset-bottom';

function readCollapsed(): boolean {
  try {
    return globalThis.localStorage?.getItem(GUIDE_COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

function writeCollapsed(collapsed: boolean): void {
  try {
    if (collapsed) globalThis.localStorage?.setItem(GUIDE_COLLAPSED_KEY, '1');
    else globalThis.localStorage?.removeItem(GUIDE_COLLAPSED_KEY);
  } catch {
    // Storage refused (private mode): the state lasts for this page only.
  }
}

/**
 * Whether an Escape pressed on `target` is for something else than the guide: an open dialog,
 * drawer, popover or menu (Blueprint closes it), or a code editor (Monaco uses Escape).
 */
export function escapeBelongsElsewhere(target: EventTarget | null): boolean {
  if (typeof document !== 'undefined' && document.body.classList.contains(Classes.OVERLAY_OPEN)) return true;
  const el = target instanceof Element ? target : null;
  return !!el?.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], .monaco-editor, [class*="-popover"], [class*="-overlay-content"]');
}

export function GuideOverlay() {
  const { t } = useWorkflowT();
  const link = useProjectLink();
  const nav = useService(navigationServiceRef);
  const loc = useAppLocation();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const bodyId = useId();
  const titleId = useId();
  useEffect(() => writeCollapsed(collapsed), [collapsed]);
  const shown = showsGuide(loc);
  const cardRef = useRef<HTMLDivElement>(null);
  // While shown, the pages end above the bar: its height, again whenever it changes.
  useEffect(() => {
    const card = cardRef.current;
    if (!shown || !card) return;
    const root = document.documentElement.style;
    const measure = () => root.setProperty(GUIDE_INSET_PROPERTY, `${Math.ceil(card.getBoundingClientRect().height)}px`);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(card);
    return () => {
      observer?.disconnect();
      root.removeProperty(GUIDE_INSET_PROPERTY);
    };
  }, [shown, collapsed]);
  // Escape anywhere on the page collapses the open guide (README "Guided first run"), unless
  // something else takes Escape first: a dialog, popover or menu, or a code editor.
  useEffect(() => {
    if (!shown || collapsed) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || escapeBelongsElsewhere(e.target)) return;
      setCollapsed(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shown, collapsed]);
  if (!shown) return null;

  const current = guideStepIndex(loc.pathname, loc.search);
  const next = nextGuideStep(loc.pathname, loc.search);
  const end = () => nav.navigate(loc.pathname, { search: { ...loc.search, guide: undefined } });
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || collapsed) return;
    e.stopPropagation();
    setCollapsed(true);
    toggleRef.current?.focus();
  };

  return (
    <Card
      ref={cardRef}
      elevation={3}
      className={`dc-workflow-guide${collapsed ? ' is-collapsed' : ''}`}
      role="region"
      aria-labelledby={titleId}
      data-testid="workflow-guide"
      onKeyDown={onKeyDown}
    >
      <div className="dc-workflow-guide-head">
        <Icon icon="learning" intent="primary" />
        <strong id={titleId}>{t('guide.title')}</strong>
        {current >= 0 && (
          <span className="dc-workflow-guide-count" data-testid="workflow-guide-count">
            {t('guide.progress', { n: current + 1, total: GUIDE_STEPS.length })}
          </span>
        )}
        <Button
          ref={toggleRef}
          variant="minimal"
          size="small"
          icon={collapsed ? 'chevron-up' : 'chevron-down'}
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          aria-label={collapsed ? t('guide.expand') : t('guide.collapse')}
          title={collapsed ? t('guide.expand') : t('guide.collapse')}
          data-testid="workflow-guide-toggle"
          onClick={() => setCollapsed((c) => !c)}
        />
      </div>
      {!collapsed && (
        <div id={bodyId} className="dc-workflow-guide-body">
          <ol className="dc-workflow-guide-steps" aria-label={t('guide.stepsLabel')}>
            {GUIDE_STEPS.map((s, i) => (
              <li key={s.id} className={i === current ? 'is-current' : i < current ? 'is-done' : undefined} data-testid={`workflow-guide-step-${s.id}`}>
                <Button
                  variant="minimal"
                  size="small"
                  alignText="start"
                  icon={i < current ? 'tick' : undefined}
                  aria-current={i === current ? 'step' : undefined}
                  text={`${i + 1}. ${t(`guide.steps.${s.id}`)}`}
                  onClick={() => link.go(s.route)}
                />
              </li>
            ))}
          </ol>
          <p className="dc-workflow-guide-hint" data-testid="workflow-guide-hint">
            {current >= 0 ? t(`guide.hints.${GUIDE_STEPS[current]!.id}`) : t('guide.start')}
          </p>
          <div className="dc-workflow-guide-actions">
            {next ? (
              <Button
                intent="primary"
                endIcon="arrow-right"
                text={t('guide.next', { step: t(`guide.steps.${next.id}`) })}
                data-testid="workflow-guide-next"
                onClick={() => link.go(next.route)}
              />
            ) : (
              <span className="dc-workflow-guide-done">{t('guide.done')}</span>
            )}
            <Button variant="minimal" text={t('guide.close')} data-testid="workflow-guide-close" onClick={end} />
          </div>
        </div>
      )}
    </Card>
  );
}
