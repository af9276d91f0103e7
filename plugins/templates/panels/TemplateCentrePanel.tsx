import { useEffect, useState, type ComponentType } from 'react';
import { Button, Callout, Card, Classes, H4, H6, HTMLTable, NonIdealState, Tab, Tabs, Tag } from '@blueprintjs/core';
import type { TemplateItem, TemplateReport } from '@decisio/domain';
import { BusyButton, isApiError, templateCatalogServiceRef, useAppLocation, useNavigate, useService, type TemplateReportViewProps } from '@decisio/sdk-plugin';
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

/** The figures a template's report renderer measured on its data. */
function ReportFigures({ tpl, report }: { tpl: TemplateItem; report: TemplateReport }) {
  const { t, locale } = useTemplatesT();
  return (
    <div data-testid={`template-${tpl.id}-results`}>
      <p style={{ marginBottom: 4 }}>{report.title[locale]}</p>
      <p className={Classes.TEXT_MUTED}>{report.basis[locale]}</p>
      <HTMLTable compact striped style={{ marginBottom: 12 }}>
        <thead>
          <tr>
            <th>{t('preview.figure')}</th>
            <th>{t('preview.value')}</th>
          </tr>
        </thead>
        <tbody>
          {report.figures.map((f) => (
            <tr key={f.id} data-testid={`template-${tpl.id}-figure-${f.id}`}>
              <td>{f.label[locale]}</td>
              <td>
                {f.value.toLocaleString(locale, { minimumFractionDigits: f.digits ?? 2, maximumFractionDigits: f.digits ?? 2 })}
                {f.unit ? ` ${f.unit}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/** The results a template reached: its plugin's report view, else the measured figures, else "not measured". */
function TemplateResults({ tpl }: { tpl: TemplateItem }) {
  const { t } = useTemplatesT();
  const contribution = useService(templateCatalogServiceRef).forTemplate(tpl.id);
  const load = tpl.report ? contribution?.reportView : undefined;
  const [View, setView] = useState<ComponentType<TemplateReportViewProps> | null | 'failed'>(null);
  useEffect(() => {
    if (!load) return;
    let live = true;
    load().then(
      (c) => live && setView(() => c),
      () => live && setView('failed'),
    );
    return () => {
      live = false;
    };
  }, [load]);
  if (!tpl.report) {
    // No report renderer: say so rather than show a figure the server did not measure.
    return (
      <p className={Classes.TEXT_MUTED} data-testid={`template-${tpl.id}-results`}>
        {t('preview.notMeasured')}
      </p>
    );
  }
  if (View === 'failed') return <Callout intent="warning">{t('preview.reportFailed')}</Callout>;
  if (load && !View) return <div className={Classes.SKELETON} style={{ height: 60 }} aria-busy="true" />;
  if (View) return <View template={tpl} />;
  return <ReportFigures tpl={tpl} report={tpl.report} />;
}

/** One template: description, graph nodes, decided fields, data sample, results, create button. */
function TemplateCard({ tpl }: { tpl: TemplateItem }) {
  const { t, locale } = useTemplatesT();
  const navigate = useNavigate();
  const demoPath = useService(templateCatalogServiceRef).forTemplate(tpl.id)?.demoPath;
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
          {tpl.industryName?.[locale] ?? tpl.industry ?? tpl.id}
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
      <TemplateResults tpl={tpl} />
      {failure && (
        <Callout intent="danger" style={{ marginBottom: 8 }}>
          {failure}
        </Callout>
      )}
      <BusyButton intent="primary" icon="add" loading={created.isLoading} onClick={() => void start()} data-testid={`template-${tpl.id}-create`}>
        {t('create')}
      </BusyButton>
      {demoPath && (
        <Button minimal icon="play" style={{ marginLeft: 8 }} onClick={() => navigate(demoPath)} data-testid={`template-${tpl.id}-demo`}>
          {t('demo')}
        </Button>
      )}
    </Card>
  );
}

/** The template centre: industry tabs (each its own route), then one card per template. */
export function TemplateCentrePanel(_props: { panelId: string }) {
  const { t, locale } = useTemplatesT();
  const navigate = useNavigate();
  const industry = industryOf(useAppLocation().pathname);
  const list = templatesApi.endpoints['templates/list'].useQuery();
  // The tabs: the industries of the templates the server lists, in list order.
  const industries = new Map<string, string>();
  for (const tpl of list.data ?? []) {
    const id = tpl.industry ?? tpl.id;
    if (!industries.has(id)) industries.set(id, tpl.industryName?.[locale] ?? id);
  }

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
  } else if (industry !== ALL && !industries.has(industry)) {
    // An address naming no industry of the list: say so (no tab of its own), and offer them all.
    body = (
      <div data-testid="templates-unknown-industry">
        <NonIdealState
          icon="search"
          title={t('unknownIndustry.title', { industry })}
          description={t('unknownIndustry.description')}
          action={
            <Button icon="list" onClick={() => navigate('/template-center')}>
              {t('unknownIndustry.all')}
            </Button>
          }
        />
      </div>
    );
  } else {
    const shown = list.data.filter((tpl) => industry === ALL || (tpl.industry ?? tpl.id) === industry);
    body = shown.length ? shown.map((tpl) => <TemplateCard key={tpl.id} tpl={tpl} />) : <NonIdealState icon="search" title={t('empty')} data-testid="templates-empty" />;
  }
  return (
    <div style={{ padding: 16, overflow: 'auto', height: '100%' }} data-testid="template-centre">
      <Tabs id="template-industry" selectedTabId={industry} onChange={(id) => navigate(id === ALL ? '/template-center' : `${INDUSTRY_PATH}${String(id)}`)}>
        <Tab id={ALL} title={t('industry.all')} />
        {[...industries].map(([id, name]) => (
          <Tab key={id} id={id} title={name} />
        ))}
      </Tabs>
      <div style={{ marginTop: 12 }}>{body}</div>
    </div>
  );
}
