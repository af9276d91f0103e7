/** Pieces shared by the trial and encoder pages: backend bar, file drop, check result, codes table. */
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Callout, HTMLSelect, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { GFS_QUALITY, GFS_QUALITY_ERRORS, gfsQualityCode, messageOf, type ComputeBackendPreference, type GfsQualityName } from '@decisio/domain';
import type { TrialState } from '../model/trial';
import { useGfsT } from '../i18n';

export function BackendBar(props: { state: TrialState; busy: boolean; onChange(p: ComputeBackendPreference): void }) {
  const { t } = useGfsT();
  const c = props.state.choice;
  return (
    <div className="gfs-row" data-testid="gfs-backend">
      <label>
        {t('backend.label')}{' '}
        <HTMLSelect
          aria-label={t('backend.label')}
          value={props.state.preference}
          disabled={props.busy}
          onChange={(e) => props.onChange(e.currentTarget.value as ComputeBackendPreference)}
          options={(['auto', 'webgpu', 'cpu'] as const).map((v) => ({ value: v, label: t(`backend.${v}`) }))}
        />
      </label>
      {c ? (
        <span data-testid="gfs-backend-choice" data-backend={c.backend} data-reason={c.reason}>
          <Tag intent={c.backend === 'webgpu' ? 'success' : 'primary'} minimal>
            {t('backend.runsOn', { backend: c.backend === 'webgpu' ? 'WebGPU' : 'WebAssembly / CPU', path: c.path })}
          </Tag>{' '}
          {t(`backend.reasons.${c.reason}`)}
          {c.adapter ? ` · ${t('backend.adapter', { adapter: c.adapter })}` : ''}
        </span>
      ) : (
        <span>
          <Spinner size={14} /> {t('backend.starting')}
        </span>
      )}
    </div>
  );
}

export function FileDrop(props: { disabled: boolean; onFile(file: File | null): void }) {
  const { t } = useGfsT();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const open = () => !props.disabled && input.current?.click();
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!props.disabled) props.onFile(e.dataTransfer.files[0] ?? null);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
  return (
    <div
      className={`gfs-drop${over ? ' gfs-over' : ''}`}
      role="button"
      tabIndex={0}
      aria-disabled={props.disabled}
      data-testid="gfs-drop"
      onClick={open}
      onKeyDown={onKey}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      {t('file.drop')}
      <input
        ref={input}
        type="file"
        accept=".npz,.csv,text/csv"
        hidden
        data-testid="gfs-file"
        onChange={(e) => {
          props.onFile(e.currentTarget.files?.[0] ?? null);
          e.currentTarget.value = '';
        }}
      />
    </div>
  );
}

export function CheckResult(props: { state: TrialState }) {
  const { t, locale } = useGfsT();
  const { check, phase, fileName } = props.state;
  if (phase === 'checking') {
    return (
      <Callout>
        <Spinner size={14} /> {t('file.checking', { name: fileName ?? '' })}
      </Callout>
    );
  }
  if (!check) return null;
  if (check.code === 0) {
    return (
      <Callout intent="success" data-testid="gfs-check" data-code={0}>
        {t('file.ok', { name: check.fileName ?? '', rows: check.rows ?? 0, obs: check.obsDim ?? 0, act: check.actDim ?? 0, format: check.format ?? '', target: check.hasTarget ? t('file.withTarget') : t('file.noTarget') })}
      </Callout>
    );
  }
  return (
    <Callout intent="danger" data-testid="gfs-check" data-code={check.code}>
      <div>{t('file.bad', { code: check.code, message: messageOf(check.error, locale) })}</div>
      {check.detail ? <div className="bp6-text-muted">{t('file.detail', { detail: check.detail })}</div> : null}
    </Callout>
  );
}

/** The documented data-quality codes, in the current language. */
export function QualityCodes() {
  const { t, locale } = useGfsT();
  const names = Object.keys(GFS_QUALITY_ERRORS) as Exclude<GfsQualityName, 'normal'>[];
  return (
    <details>
      <summary>{t('file.codesTitle')}</summary>
      <HTMLTable compact data-testid="gfs-codes">
        <tbody>
          {names.map((n) => (
            <tr key={n}>
              <td>{gfsQualityCode(GFS_QUALITY[n])}</td>
              <td>{messageOf(GFS_QUALITY_ERRORS[n], locale)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </details>
  );
}
