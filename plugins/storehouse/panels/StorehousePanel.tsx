import { useEffect, useMemo, useState } from 'react';
import { AnchorButton, Button, Callout, Card, Classes, FormGroup, H4, H5, HTMLSelect, InputGroup, NonIdealState, ProgressBar, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import type { Recognition, StorehouseTemplate, TemplateMatch } from '@decisio/domain';
import { BusyButton, ChoiceField, DataTable, fieldErrorsOf, failureMessage, PanelPage, useAppLocation, useNavigate } from '@decisio/sdk-plugin';
import { storehouseApi } from '../api';
import { useStorehouseT } from '../i18n';
import { draftOf, mappingIssues, mappingRequest, type MappingDraft } from '../model/mapping';

/** Where a project made here opens: its first modelling step, with the step guide on (as the template centre does). */
export const STOREHOUSE_PROJECT_START = '/workflow/table-correlation';
const ALL = 'all';

/** The templates of one industry (or all), each with the fields of its table. */
function TemplateList() {
  const { t, locale } = useStorehouseT();
  const [type, setType] = useState(ALL);
  const types = storehouseApi.endpoints['storehouse/types'].useQuery();
  const list = storehouseApi.endpoints['storehouse/list'].useQuery(type === ALL ? {} : { type });
  let body;
  if (list.isError) body = <Callout intent="danger" title={t('templates.failed')} />;
  else if (!list.data) body = <div className={Classes.SKELETON} style={{ height: 80 }} aria-busy="true" aria-label={t('templates.loading')} />;
  else if (list.data.length === 0) body = <NonIdealState icon="search" title={t('templates.empty')} />;
  else
    body = list.data.map((tpl: StorehouseTemplate) => (
      <Card key={tpl.templateId} data-testid={`storehouse-template-${tpl.templateId}`} style={{ marginBottom: 8, padding: 12 }}>
        <H5 style={{ marginBottom: 4 }}>
          {tpl.name[locale]}{' '}
          <Tag minimal style={{ marginLeft: 4 }}>
            {types.data?.find((x) => x.type === tpl.type)?.name[locale] ?? tpl.type}
          </Tag>
        </H5>
        <p className={Classes.TEXT_MUTED} style={{ margin: '4px 0' }}>
          {t('templates.rows', { rows: tpl.rows })} · {t('templates.fields')}:
        </p>
        <div>
          {tpl.fields.map((f) => (
            <Tag key={f.name} minimal={!f.decision} intent={f.decision ? 'success' : 'none'} style={{ margin: 2 }} title={f.decision ? t('templates.decides') : f.required ? undefined : t('templates.optional')}>
              {f.name}
              {f.required ? '' : ` (${t('templates.optional')})`}
            </Tag>
          ))}
        </div>
      </Card>
    ));
  return (
    <section>
      <H4>{t('templates.heading')}</H4>
      <Tabs id="storehouse-industry" selectedTabId={type} onChange={(id) => setType(String(id))}>
        <Tab id={ALL} title={t('templates.all')} />
        {(types.data ?? []).map((x) => (
          <Tab key={x.type} id={x.type} title={`${x.name[locale]} (${x.count})`} />
        ))}
      </Tabs>
      <div style={{ marginTop: 8 }}>{body}</div>
    </section>
  );
}

/** The mapping editor of one match: a column per template field, then the project. */
function MappingEditor({ recognition, match }: { recognition: Recognition; match: TemplateMatch }) {
  const { t, locale } = useStorehouseT();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<MappingDraft>(() => draftOf(match));
  const [name, setName] = useState('');
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, created] = storehouseApi.endpoints['storehouse/createProject'].useMutation();
  useEffect(() => {
    setDraft(draftOf(match));
    setServerErrors({});
    setFailure(null);
  }, [match]);
  const issues = mappingIssues(match, draft);
  const columnChoices = recognition.columns.map((c) => ({ value: c.name, label: `${c.name} (${c.valueType})` }));
  const submit = async () => {
    setFailure(null);
    setServerErrors({});
    if (Object.keys(issues).length > 0) {
      setFailure(t('mapping.fix'));
      return;
    }
    try {
      const r = await create({ recognitionId: recognition.recognitionId, templateId: match.templateId, mapping: mappingRequest(match, draft), ...(name.trim() ? { name: name.trim() } : {}) }).unwrap();
      navigate(STOREHOUSE_PROJECT_START, { search: { projectId: r.project.projectId, solutionId: r.solutionId, guide: 'true' } });
    } catch (err) {
      setServerErrors(fieldErrorsOf(err));
      setFailure(t('mapping.failed', { message: failureMessage(err, '') ?? '' }));
    }
  };
  return (
    <section data-testid="storehouse-mapping">
      <H4>{t('mapping.heading', { template: match.name[locale] })}</H4>
      <DataTable columns={[t('mapping.field'), t('mapping.role'), t('mapping.column'), t('mapping.match')]} testId="storehouse-mapping-rows">
        {match.mapping.map((m) => {
          const issue = issues[m.field] ?? (serverErrors[`mapping.${m.field}`] ? 'invalid' : undefined);
          const proposed = m.column !== null && draft[m.field] === m.column;
          return (
            <tr key={m.field} data-testid={`storehouse-map-${m.field}`}>
              <td>
                <code>{m.field}</code>
                {m.required ? '' : ` (${t('templates.optional')})`}
              </td>
              <td>{t(`mapping.roles.${m.role}` as 'mapping.roles.field')}</td>
              <td>
                <HTMLSelect
                  aria-label={`${t('mapping.column')} ${m.field}`}
                  value={draft[m.field] ?? ''}
                  onChange={(e) => setDraft({ ...draft, [m.field]: e.currentTarget.value })}
                  data-testid={`storehouse-column-${m.field}`}
                >
                  <option value="">{t('mapping.noColumn')}</option>
                  {columnChoices.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </HTMLSelect>
                {issue && (
                  <div className={Classes.TEXT_SMALL} style={{ color: 'var(--dc-danger, #cd4246)' }} data-testid={`storehouse-issue-${m.field}`}>
                    {t(`mapping.issue.${issue}` as 'mapping.issue.required')}
                  </div>
                )}
              </td>
              <td className={Classes.TEXT_MUTED}>{proposed && m.score ? `${m.score.total.toFixed(2)} (${m.score.name.toFixed(2)} · ${m.score.type.toFixed(2)} · ${m.score.range.toFixed(2)})` : '—'}</td>
            </tr>
          );
        })}
      </DataTable>
      <FormGroup label={t('mapping.projectName')} labelFor="storehouse-project-name" style={{ marginTop: 12, maxWidth: 360 }}>
        <InputGroup id="storehouse-project-name" value={name} maxLength={20} placeholder={t('mapping.projectNamePlaceholder')} onChange={(e) => setName(e.currentTarget.value)} />
      </FormGroup>
      {failure && (
        <Callout intent="danger" style={{ marginBottom: 8 }} data-testid="storehouse-create-failure">
          {failure}
        </Callout>
      )}
      <BusyButton intent="primary" icon="add" loading={created.isLoading} onClick={() => void submit()} data-testid="storehouse-create">
        {t('mapping.create')}
      </BusyButton>
    </section>
  );
}

/** The matches of a recognition, best first, and the mapping of the chosen one. */
function RecognitionResult({ recognition }: { recognition: Recognition }) {
  const { t, locale } = useStorehouseT();
  const [chosen, setChosen] = useState<string | null>(recognition.matches.find((m) => m.complete)?.templateId ?? null);
  const match = useMemo(() => recognition.matches.find((m) => m.templateId === chosen) ?? null, [recognition, chosen]);
  return (
    <>
      <section data-testid="storehouse-results">
        <H4>{t('results.heading', { table: recognition.tableName })}</H4>
        <p className={Classes.TEXT_MUTED}>{t('recognize.columns', { rows: recognition.rows, columns: recognition.columns.map((c) => c.name).join(', ') })}</p>
        <DataTable columns={[t('results.template'), t('results.score'), t('results.fit'), '']} testId="storehouse-result-rows">
          {recognition.matches.map((m) => (
            <tr key={m.templateId} data-testid={`storehouse-result-${m.templateId}`}>
              <td>{m.name[locale]}</td>
              <td style={{ minWidth: 140 }}>
                <span data-testid={`storehouse-score-${m.templateId}`}>{t('results.scoreValue', { score: m.score })}</span>
                <ProgressBar value={m.score / 100} stripes={false} animate={false} intent={m.complete ? 'success' : 'warning'} />
              </td>
              <td>{m.complete ? <Tag intent="success">{t('results.complete')}</Tag> : <Tag intent="warning">{t('results.missing', { fields: m.missing.join(', ') })}</Tag>}</td>
              <td>
                <Button size="small" intent={m.templateId === chosen ? 'primary' : 'none'} onClick={() => setChosen(m.templateId)} data-testid={`storehouse-use-${m.templateId}`}>
                  {t('results.use')}
                </Button>
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      {match && <MappingEditor recognition={recognition} match={match} />}
    </>
  );
}

/** The storehouse: the templates, the recognizer on one of the user's datasets, the mapping and the project. */
export function StorehousePanel(_props: { panelId: string }) {
  const { t } = useStorehouseT();
  const navigate = useNavigate();
  const location = useAppLocation();
  const recognitionId = typeof location.search.recognitionId === 'string' ? location.search.recognitionId : '';
  const datasets = storehouseApi.endpoints['storehouse/datasets'].useQuery();
  const result = storehouseApi.endpoints['storehouse/result'].useQuery({ recognitionId }, { skip: !recognitionId });
  const [recognize, recognizing] = storehouseApi.endpoints['storehouse/recognize'].useMutation();
  const [tableId, setTableId] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const run = async () => {
    if (!tableId) return;
    setFailure(null);
    try {
      const r = await recognize({ tableId }).unwrap();
      // The user's own step: a history entry of its own, so Back returns to the storehouse as it was.
      navigate(location.pathname, { search: { recognitionId: r.recognitionId } });
    } catch (err) {
      setFailure(failureMessage(err, t('recognize.failed')) ?? t('recognize.failed'));
    }
  };
  const rows = datasets.data?.rows ?? [];
  return (
    <div style={{ overflow: 'auto', height: '100%' }} data-testid="storehouse">
      <PanelPage intro={t('intro')}>
        <section>
          <H4>{t('recognize.heading')}</H4>
          {datasets.isSuccess && rows.length === 0 ? (
            <Callout intent="primary" data-testid="storehouse-no-dataset">
              {t('recognize.none')}{' '}
              <AnchorButton variant="minimal" size="small" icon="th" onClick={() => navigate('/dataset-manage')}>
                {t('recognize.uploadLink')}
              </AnchorButton>
            </Callout>
          ) : (
            <div style={{ display: 'flex', gap: 12, alignItems: 'flex-end', flexWrap: 'wrap' }}>
              <ChoiceField
                id="storehouse-dataset"
                label={t('recognize.dataset')}
                value={tableId}
                onChange={setTableId}
                placeholder={t('recognize.choose')}
                choices={rows.map((d) => ({ value: d.tableId, label: `${d.name} (${d.amount})` }))}
              />
              <FormGroup>
                <BusyButton intent="primary" icon="search-template" disabled={!tableId} loading={recognizing.isLoading} onClick={() => void run()} data-testid="storehouse-recognize">
                  {t('recognize.run')}
                </BusyButton>
              </FormGroup>
            </div>
          )}
          {failure && (
            <Callout intent="danger" data-testid="storehouse-recognize-failure">
              {failure}
            </Callout>
          )}
        </section>
        {/* the answer for this recognition only (`currentData`): another one never shows the previous scores while it loads */}
        {recognitionId && !result.currentData && !result.isError && <Spinner size={24} />}
        {recognitionId && result.isError && <Callout intent="danger">{failureMessage(result.error, t('recognize.failed'))}</Callout>}
        {result.currentData && recognitionId && <RecognitionResult key={result.currentData.recognitionId} recognition={result.currentData} />}
        <TemplateList />
      </PanelPage>
    </div>
  );
}
