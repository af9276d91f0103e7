import { useState } from 'react';
import { Callout, Card, FormGroup, H5, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import type { DecisionReply, ModelServiceDetail, ModelServiceField } from '@decisio/domain';
import { BusyButton, failureMessage, RowForm } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';

/** The text a field's input starts with: the middle of its range (the first category), repeated per history frame. */
export function startText(f: ModelServiceField): string {
  const v = f.dataType === 'category' ? (f.values?.[0] ?? 0) : Number(((f.min + f.max) / 2).toPrecision(4));
  return f.frames > 1 ? Array.from({ length: f.frames }, () => v).join(', ') : String(v);
}

/** Reads one field's text: a number, or `frames` numbers separated by commas; undefined when it is not that. */
export function parseField(f: ModelServiceField, text: string): number | number[] | undefined {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) return undefined;
  const nums = parts.map(Number);
  if (nums.some((n) => !Number.isFinite(n))) return undefined;
  if (f.frames > 1) return nums.length === f.frames ? nums : undefined;
  return nums.length === 1 ? nums[0] : undefined;
}

const shown = (v: number | number[] | undefined) => (v === undefined ? '—' : Array.isArray(v) ? v.join(', ') : String(v));

/**
 * "Try a decision" on the service page: one input per input field, sent with the signed-in
 * session to `modeldeploy/decision` (recorded like a call at the access address), the decided
 * outputs shown beside their ranges. Only a running service decides.
 */
export function TryDecision({ service }: { service: ModelServiceDetail }) {
  const { t } = useDeployT();
  const inputs = service.inputs ?? [];
  const outputs = service.outputs ?? [];
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(inputs.map((f) => [f.name, startText(f)])));
  const [invalid, setInvalid] = useState<string[]>([]);
  const [reply, setReply] = useState<DecisionReply | null>(null);
  const [decide, state] = deployApi.endpoints['deploy/decide'].useMutation();
  const running = service.status === 'running';

  const submit = async () => {
    const row: Record<string, number | number[]> = {};
    const bad: string[] = [];
    for (const f of inputs) {
      const v = parseField(f, texts[f.name] ?? '');
      if (v === undefined) bad.push(f.name);
      else row[f.name] = v;
    }
    setInvalid(bad);
    if (bad.length) return;
    setReply(null);
    try {
      setReply(await decide({ id: service.id, inputs: row }).unwrap());
    } catch {
      // shown from the mutation's error below
    }
  };
  const decided = reply && !Array.isArray(reply.decisions) ? reply.decisions : null;

  return (
    <Card data-testid="deploy-try">
      <H5>{t('try.title')}</H5>
      {!running && (
        <Callout intent="primary" icon="info-sign" style={{ marginBottom: 8 }}>
          {t('try.notRunning')}
        </Callout>
      )}
      <RowForm gap={8} align="flex-end" onSubmit={() => void submit()}>
        {inputs.map((f) => {
          const id = `deploy-try-${f.name}`;
          const wrong = invalid.includes(f.name);
          const helper = wrong ? (f.frames > 1 ? t('try.framesInvalid', { frames: f.frames }) : t('try.numberInvalid')) : f.dataType === 'category' ? undefined : `${f.min} – ${f.max}`;
          return (
            <FormGroup key={f.name} label={f.name} labelFor={id} helperText={helper} intent={wrong ? 'danger' : 'none'} style={{ margin: 0, minWidth: 140 }}>
              {f.dataType === 'category' && f.frames <= 1 ? (
                <HTMLSelect
                  id={id}
                  value={texts[f.name] ?? ''}
                  onChange={(e) => setTexts((x) => ({ ...x, [f.name]: e.target.value }))}
                  options={(f.values ?? []).map((v) => ({ value: String(v), label: String(v) }))}
                />
              ) : (
                <InputGroup id={id} intent={wrong ? 'danger' : 'none'} value={texts[f.name] ?? ''} onChange={(e) => setTexts((x) => ({ ...x, [f.name]: e.target.value }))} />
              )}
            </FormGroup>
          );
        })}
        <BusyButton type="submit" intent="primary" icon="predictive-analysis" disabled={!running || inputs.length === 0} loading={state.isLoading} text={t('try.decide')} />
      </RowForm>
      {state.isError && !state.isLoading && (
        <Callout intent="danger" title={t('try.failed')} style={{ marginTop: 8 }} data-testid="deploy-try-error">
          {failureMessage(state.error, '')}
        </Callout>
      )}
      {decided && (
        <HTMLTable compact striped style={{ width: '100%', marginTop: 8 }} data-testid="deploy-try-result">
          <caption style={{ textAlign: 'left', fontWeight: 600, padding: '4px 0' }}>{t('try.result', { id: reply!.decisionId })}</caption>
          <thead>
            <tr>
              <th>{t('detail.field')}</th>
              <th>{t('try.value')}</th>
              <th>{t('detail.range')}</th>
            </tr>
          </thead>
          <tbody>
            {outputs.map((f) => (
              <tr key={f.name}>
                <td>
                  <code>{f.name}</code>
                </td>
                <td>{shown(decided[f.name])}</td>
                <td>{f.dataType === 'category' ? (f.values ?? []).join(', ') : `${f.min} – ${f.max}`}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
