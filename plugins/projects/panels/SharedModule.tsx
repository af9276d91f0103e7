import { HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { ShareModule, SharedModuleView } from '@decisio/domain';
import { createUseT } from '@decisio/sdk-plugin';
import type { TrainingsBundle } from '@decisio/sdk-plugin/trainings/plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';

/** The trainings kit's translations (its states and algorithm names, as its lists show them). */
const useKitT = createUseT<TrainingsBundle>('trainings');
/** The state a training stopped by hand ends in (the kit's `STOPPED_MANUALLY`). */
const STOPPED_MANUALLY = 'successful by manual stop';

/** `key` translated by `t`, or `raw` when there is no such translation (a value this version does not know). */
function named<K extends string>(t: (key: K) => string, key: string, raw: string): string {
  const label = t(key as K);
  return label === key ? raw : label;
}

/** One module of a share link, read-only: per solution, its records (name, state, algorithm, measured score), its graph or its data access. */
export function SharedModule({ token, module }: { token: string; module: ShareModule }) {
  const { t, locale } = useProjectsT();
  const view = projectsApi.endpoints['projects/sharedModule'].useQuery({ token, module });
  // `currentData`: the answer for this module (`data` would show the previous tab's while loading).
  const data = view.currentData;
  if (view.isError) return <NonIdealState icon="error" title={t('shared.moduleFailed')} />;
  if (!data) return <Spinner size={24} className="dc-gap-top" />;
  if (data.solutions.length === 0) return <p className="dc-muted">{t('shared.none')}</p>;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div data-testid={`shared-module-${module}`}>
      {data.solutions.map((s) => (
        <section key={s.solutionId} className="dc-gap-top">
          <h5 className="bp6-heading">{s.name}</h5>
          <Body solution={s} module={module} number={number} when={when} />
        </section>
      ))}
    </div>
  );
}

function Body({ solution: s, module, number, when }: { solution: SharedModuleView['solutions'][number]; module: ShareModule; number: Intl.NumberFormat; when: Intl.DateTimeFormat }) {
  const { t } = useProjectsT();
  const kit = useKitT().t;
  // Reports and services have their own states (and a report its type); the rest are trainings and deductions.
  const stateName = (state: string): string => {
    if (module === 'report') return named(t, `shared.reportStates.${state}`, state);
    if (module === 'deploy') return named(t, `shared.serviceStates.${state}`, state);
    return named(kit, `states.${state === STOPPED_MANUALLY ? 'manualStop' : state}`, state);
  };
  const algorithmName = (algorithm: string): string => (module === 'report' ? named(t, `shared.reportTypes.${algorithm}`, algorithm) : named(kit, `algorithms.${algorithm}`, algorithm));
  if (module === 'workbench') {
    if (!s.graph || s.graph.nodes.length === 0) return <p className="dc-muted">{t('shared.noGraph')}</p>;
    return (
      <>
        <p className="dc-muted">{t('shared.nodes', { edges: s.graph.edges })}</p>
        <div className="dc-projects-tags">
          {s.graph.nodes.map((n) => (
            <Tag key={n.name} minimal title={n.role}>
              {n.name}
            </Tag>
          ))}
        </div>
      </>
    );
  }
  if (module === 'data-source') {
    const d = s.dataAccess;
    if (!d) return <p className="dc-muted">{t('shared.noDataAccess')}</p>;
    return (
      <>
        <p>{t('shared.fields', { trajectory: d.trajectoryField, sequence: d.sequenceField, datetime: d.datetimeField ?? t('shared.noTime') })}</p>
        <p className="dc-muted">{t('shared.relationsCount', { count: d.relations })}</p>
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('shared.tables')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {d.tables.map((tb, i) => (
              <tr key={`${tb.name}-${i}`}>
                <td>{tb.name}</td>
                <td>{tb.rows === null ? '' : t('shared.rows', { columns: tb.columns, rows: number.format(tb.rows) })}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </>
    );
  }
  if (s.items.length === 0) return <p className="dc-muted">{t('shared.empty')}</p>;
  return (
    <HTMLTable compact striped style={{ width: '100%' }}>
      <thead>
        <tr>
          <th>{t('shared.name')}</th>
          <th>{t('shared.state')}</th>
          <th>{t('shared.algorithm')}</th>
          <th>{t('shared.score')}</th>
          <th>{t('shared.created')}</th>
        </tr>
      </thead>
      <tbody>
        {s.items.map((it) => (
          <tr key={it.id}>
            <td>{it.name}</td>
            <td>{it.state ? stateName(it.state) : ''}</td>
            <td>{it.algorithm ? algorithmName(it.algorithm) : ''}</td>
            <td>{it.score === null ? '—' : number.format(it.score)}</td>
            <td>{it.createdAt ? when.format(new Date(it.createdAt)) : ''}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
