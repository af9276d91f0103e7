import { useState } from 'react';
import { Button, Callout, Card, Classes, H4, H6, HTMLTable, NonIdealState, Tab, Tabs, Tag } from '@blueprintjs/core';
import type { TemplateItem } from '@decisio/domain';
import { isApiError, useAppLocation, useNavigate } from '@decisio/sdk-plugin';
import { templatesApi } from '../api';
import { useTemplatesT } from '../i18n';

/** Where a template project opens: its first modelling step, with the step guide on. */
export const TEMPLATE_PROJECT_START = '/workflow/table-correlation';
const ALL = 'all';
const INDUSTRY_PATH = '/template-center/industry/';

/** The industry of a `/template-center/industry/<id>` path, or `all`. */
export function industryOf(pathname: string): string {
  return pathname.startsWith(INDUSTRY_PATH) ? pathname.slice(INDUSTRY_PATH.length).replace(/\/.*$/, '') : ALL;
}

/** One template: description, graph nodes, decided fields, data sample, results, create button. */
function TemplateCard({ tpl }: { tpl: TemplateItem }) {
  const { t, locale } = useTemplatesT();
  const navigate = useNavigate();
  const [create, created] = templatesApi.endpoints['templates/createProject'].useMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const start = async () => {
    setFailure(null);
    try {
      const r = await create({ templateId: tpl.id }).unwrap();
      navigate(TEMPLATE_PROJECT_START, { search: { projectId: r.project.projectId, solutionId: r.solutionId, guide: 'true' } });
    } catch (err) {
      setFailure(t('createFailed', { message: isApiError(err) ? err.message : '' }));
    }
  };
  return (
    <Card className="dc-template-card" data-testid={`template-${tpl.id}`} style={{ marginBottom: 16 }}>
      <H4>
        <Tag minimal intent="primary" style={{ marginRight: 8 }}>
          {t(`industry.${tpl.id}` as 'industry.electric')}
        </Tag>
        {tpl.name[locale]}
      </H4>
      <p className={Classes.TEXT_MUTED}>{tpl.description[locale]}</p>
      <H6>{t('preview.graph')}</H6>
      <div data-testid={`template-${tpl.id}-nodes`}>
        {tpl.nodes.map((n) => (
          <Tag key={n} minimal={n !== tpl.agent} intent={n === tpl.agent ? 'success' : 'none'} style={{ margin: 2 }}>
            {n}
          </Tag>
        ))}
      </div>
      <H6 style={{ marginTop: 12 }}>{t('preview.decides')}</H6>
      <p data-testid={`template-${tpl.id}-decides`}>{t('preview.decidesText', { agent: tpl.agent, fields: (tpl.decisionFields ?? []).join(', ') })}</p>
      <H6>{t('preview.sample', { rows: tpl.rows, trajectories: tpl.trajectories, steps: tpl.steps })}</H6>
      {tpl.sample ? (
        <div style={{ overflowX: 'auto' }}>
          <HTMLTable compact striped data-testid={`template-${tpl.id}-sample`}>
            <thead>
              <tr>
                {tpl.sample.columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tpl.sample.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((v, j) => (
                    <td key={j}>{v}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      ) : (
        <p className={Classes.TEXT_MUTED}>{t('preview.noSample')}</p>
      )}
      <H6 style={{ marginTop: 12 }}>{t('preview.results')}</H6>
      {/* The server reports no measured results for templates yet: say so rather than show a figure. */}
      <p className={Classes.TEXT_MUTED} data-testid={`template-${tpl.id}-results`}>
        {t('preview.notMeasured')}
      </p>
      {failure && (
        <Callout intent="danger" style={{ marginBottom: 8 }}>
          {failure}
        </Callout>
      )}
      <Button intent="primary" icon="add" loading={created.isLoading} onClick={() => void start()} data-testid={`template-${tpl.id}-create`}>
        {t('create')}
      </Button>
    </Card>
  );
}

/** The template centre: industry tabs (each its own route), then one card per template. */
export function TemplateCentrePanel(_props: { panelId: string }) {
  const { t } = useTemplatesT();
  const navigate = useNavigate();
  const industry = industryOf(useAppLocation().pathname);
  const list = templatesApi.endpoints['templates/list'].useQuery();

  let body;
  if (list.isError) {
    body = (
      <NonIdealState
        icon="error"
        title={t('error')}
        action={
          <Button icon="refresh" onClick={() => void list.refetch()} data-testid="templates-retry">
            {t('retry')}
          </Button>
        }
      />
    );
  } else if (!list.data) {
    body = <div className={Classes.SKELETON} style={{ height: 160 }} aria-busy="true" aria-label={t('loading')} />;
  } else {
    const shown = list.data.filter((tpl) => industry === ALL || tpl.id === industry);
    body = shown.length ? shown.map((tpl) => <TemplateCard key={tpl.id} tpl={tpl} />) : <NonIdealState icon="search" title={t('empty')} data-testid="templates-empty" />;
  }
  return (
    <div style={{ padding: 16, overflow: 'auto', height: '100%' }} data-testid="template-centre">
      <Tabs id="template-industry" selectedTabId={industry} onChange={(id) => navigate(id === ALL ? '/template-center' : `${INDUSTRY_PATH}${String(id)}`)}>
        <Tab id={ALL} title={t('industry.all')} />
        <Tab id="electric" title={t('industry.electric')} />
        <Tab id="coupon" title={t('industry.coupon')} />
      </Tabs>
      <div style={{ marginTop: 12 }}>{body}</div>
    </div>
  );
}
