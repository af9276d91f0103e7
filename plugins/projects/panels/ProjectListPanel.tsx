import { useEffect, useRef, useState } from 'react';
import { Button, Card, HTMLSelect, InputGroup, Menu, MenuItem, NonIdealState, PopoverNext, Spinner, Switch, Tag } from '@blueprintjs/core';
import type { ProjectItem } from '@decisio/domain';
import { focusBackUnlessMoved, pageCount, Pager, useAppLocation, useListSearch, useNotify, useProjectLink } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { CollaborationDialog } from '../components/CollaborationDialog';
import { DeleteProjectAlert } from '../components/DeleteProjectAlert';
import { describeFailure } from '../components/errors';
import { ProjectDialog } from '../components/ProjectDialog';
import { ShareDialog } from '../components/ShareDialog';
import { useProjectsT } from '../i18n';
import { TAG_COLOUR_HEX } from '../model/colours';
import './projects.css';

const PAGE_SIZE = 20;

type Open = { kind: 'create' } | { kind: 'edit' | 'delete' | 'collaborate' | 'share'; project: ProjectItem } | null;

/**
 * The project list (`/all-project`): favourites first, colour tag, search, favourites-only and
 * owner filters, paging; create, edit, delete, collaboration and share link per project.
 * Selecting a project puts its id in the location (`projectId`) for the solutions panel.
 */
export function ProjectListPanel() {
  const { t, locale } = useProjectsT();
  const notify = useNotify();
  const location = useAppLocation();
  const link = useProjectLink();
  const [favouritesOnly, setFavouritesOnly] = useState(false);
  const [scope, setScope] = useState<'all' | 'mine' | 'shared'>('all');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [favouritesOnly, scope] });
  const [open, setOpen] = useState<Open>(null);
  // Each row's More button, for its menu to give the focus back to (focusBackUnlessMoved).
  const moreButtons = useRef(new Map<string, HTMLButtonElement>());
  // Quick open (Mod+P) lands here with `focus=search`: the search box takes the focus.
  const searchRef = useRef<HTMLInputElement>(null);
  const focusSearch = location.search.focus === 'search';
  useEffect(() => {
    if (focusSearch) searchRef.current?.focus();
  }, [focusSearch, location]);

  const list = projectsApi.endpoints['projects/list'].useQuery({
    page,
    pageSize: PAGE_SIZE,
    keyword: search || undefined,
    favourite: favouritesOnly ? true : undefined,
    scope,
  });
  const [setFavourite] = projectsApi.endpoints['projects/setFavourite'].useMutation();
  const selected = location.search.projectId;
  const select = (projectId: string | undefined) => link.go(location.pathname, { projectId, solutionId: undefined });
  const filtered = Boolean(search) || favouritesOnly || scope !== 'all';

  const toggleFavourite = async (p: ProjectItem) => {
    try {
      await setFavourite({ projectId: p.projectId, favourite: !p.favourite }).unwrap();
    } catch (err) {
      const f = describeFailure(err, t('list.favouriteFailed'));
      if (f.message) notify({ message: f.message, intent: 'danger', icon: 'error' });
    }
  };

  const rows = list.data?.rows ?? [];
  const pages = pageCount(list.data?.total ?? 0, PAGE_SIZE);

  let body;
  if (list.isLoading) body = <Spinner className="dc-gap-top" />;
  else if (list.isError)
    body = (
      <div data-testid="projects-error">
        <NonIdealState
          icon="error"
          title={t('list.loadFailed')}
          action={<Button icon="refresh" text={t('list.retry')} onClick={() => void list.refetch()} />}
        />
      </div>
    );
  else if (rows.length === 0)
    body = filtered ? (
      <div data-testid="projects-no-match">
        <NonIdealState icon="search" title={t('list.noMatch')} description={t('list.noMatchDescription')} />
      </div>
    ) : (
      <div data-testid="projects-empty">
        <NonIdealState
          icon="projects"
          title={t('list.emptyTitle')}
          description={t('list.emptyDescription')}
          action={<Button intent="primary" icon="plus" text={t('list.create')} onClick={() => setOpen({ kind: 'create' })} />}
        />
      </div>
    );
  else
    body = (
      <>
        <ul className="dc-projects-rows" data-testid="projects-rows">
          {rows.map((p) => {
            const canEdit = p.right !== 'view';
            return (
              <li key={p.projectId}>
                <Card
                  className={`dc-projects-row${p.projectId === selected ? ' dc-projects-row-selected' : ''}`}
                  style={{ ['--dc-project-colour' as string]: TAG_COLOUR_HEX[p.colour] }}
                  data-testid={`project-row-${p.projectId}`}
                >
                  <Button
                    variant="minimal"
                    icon={p.favourite ? 'star' : 'star-empty'}
                    intent={p.favourite ? 'warning' : 'none'}
                    aria-label={t(p.favourite ? 'list.unfavourite' : 'list.favourite')}
                    aria-pressed={p.favourite}
                    onClick={() => void toggleFavourite(p)}
                    data-testid="project-favourite"
                  />
                  <div className="dc-projects-row-main">
                    <Button
                      variant="minimal"
                      className="dc-projects-row-name"
                      text={p.name}
                      aria-label={t('list.open', { name: p.name })}
                      onClick={() => select(p.projectId)}
                    />
                    {p.info && <div className="dc-projects-row-info">{p.info}</div>}
                    <div className="dc-projects-row-meta">
                      <span>
                        <span className="dc-projects-swatch" style={{ background: TAG_COLOUR_HEX[p.colour] }} aria-hidden />
                        {t(`colour.${p.colour}`)}
                      </span>
                      {p.industryTemplate && <span>{t(`industry.${p.industryTemplate}`)}</span>}
                      <span>{t('list.owner', { name: p.ownerName })}</span>
                      <span>{t('list.solutionCount', { count: p.solutionCount })}</span>
                      <span>{t('list.updated', { time: new Date(p.updatedAt).toLocaleString(locale) })}</span>
                    </div>
                  </div>
                  {p.locked && (
                    <Tag intent="warning" icon="lock" minimal>
                      {t('list.locked')}
                    </Tag>
                  )}
                  <Tag minimal>{t(`right.${p.right}`)}</Tag>
                  {/* Every item opens a dialog, which takes the focus and gives it back to More when it
                      closes: the menu fading out must not return it to More (the dialog's focus trap
                      would then take it from the field that had it). Escape returns it. */}
                  <PopoverNext
                    placement="bottom-end"
                    shouldReturnFocusOnClose={false}
                    onClosed={(menu) => focusBackUnlessMoved(menu, moreButtons.current.get(p.projectId))}
                    content={
                      <Menu>
                        <MenuItem icon="edit" text={t('list.edit')} disabled={!canEdit || p.locked} onClick={() => setOpen({ kind: 'edit', project: p })} />
                        <MenuItem icon="people" text={t('list.collaborate')} onClick={() => setOpen({ kind: 'collaborate', project: p })} />
                        <MenuItem icon="share" text={t('list.share')} onClick={() => setOpen({ kind: 'share', project: p })} />
                        <MenuItem
                          icon="trash"
                          intent="danger"
                          text={t('list.delete')}
                          disabled={p.right !== 'owner' || p.locked}
                          onClick={() => setOpen({ kind: 'delete', project: p })}
                        />
                      </Menu>
                    }
                  >
                    <Button
                      ref={(el) => {
                        if (el) moreButtons.current.set(p.projectId, el);
                        else moreButtons.current.delete(p.projectId);
                      }}
                      variant="minimal"
                      icon="more"
                      aria-label={t('list.actions', { name: p.name })}
                      data-testid="project-actions"
                    />
                  </PopoverNext>
                </Card>
              </li>
            );
          })}
        </ul>
        {pages > 1 && (
          <div className="dc-projects-pager">
            <Pager minimal page={page} pages={pages} onPage={setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')}>
              {t('list.page', { page, pages })}
            </Pager>
          </div>
        )}
      </>
    );

  return (
    <div className="dc-projects-panel" data-testid="projects-panel">
      <div className="dc-projects-toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          value={keyword}
          onValueChange={setKeyword}
          data-testid="projects-search"
          inputRef={searchRef}
        />
        <HTMLSelect
          aria-label={t('list.scope')}
          value={scope}
          onChange={(e) => setScope(e.currentTarget.value as typeof scope)}
          options={[
            { value: 'all', label: t('list.scopeAll') },
            { value: 'mine', label: t('list.scopeMine') },
            { value: 'shared', label: t('list.scopeShared') },
          ]}
        />
        <Switch checked={favouritesOnly} label={t('list.favouritesOnly')} onChange={(e) => setFavouritesOnly(e.currentTarget.checked)} className="dc-projects-switch" />
        <Button intent="primary" icon="plus" text={t('list.create')} onClick={() => setOpen({ kind: 'create' })} data-testid="projects-create" />
      </div>
      {body}
      {open?.kind === 'create' && <ProjectDialog onClose={() => setOpen(null)} onSaved={(p) => select(p.projectId)} />}
      {open?.kind === 'edit' && <ProjectDialog project={open.project} onClose={() => setOpen(null)} />}
      {open?.kind === 'delete' && (
        <DeleteProjectAlert project={open.project} onClose={() => setOpen(null)} onDeleted={() => open.project.projectId === selected && select(undefined)} />
      )}
      {open?.kind === 'collaborate' && <CollaborationDialog project={open.project} onClose={() => setOpen(null)} />}
      {open?.kind === 'share' && <ShareDialog project={open.project} onClose={() => setOpen(null)} />}
    </div>
  );
}
