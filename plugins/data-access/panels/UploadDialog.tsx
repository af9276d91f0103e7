import { useEffect, useRef, useState } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, ProgressBar, Spinner } from '@blueprintjs/core';
import { DATASET_TYPES, LIMITS, messageOf, type Dataset, type DatasetType } from '@decisio/domain';
import { Dialog, dataWorkerServiceRef, forgetUpload, useFocusBackWhenDone, useNotify, useOptionalService, useUploadTransport } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { cellText, failureMessage, formatBytes } from '../format';
import { useDataT } from '../i18n';
import { createPreviewer, type PreviewIssue, type PreviewResult, type PreviewStats, type Previewer } from '../preview';
import { uploadResumable, UploadStopped } from '../upload';
import { PreviewTable } from './PreviewTable';
import { useValueKindLabel } from './value-kind';

type Running = { sent: number; total: number; resumed: boolean; uploadId: string | null; controller: AbortController };

/** Dataset name proposed from a file name: the stem, cut to 30 characters. */
export function nameFromFile(file: string): string {
  return file.replace(/\.[^.]*$/, '').slice(0, LIMITS.datasetNameMax);
}

/**
 * "Upload dataset": choose a local file, see it checked and previewed in the browser (first
 * rows, types, then statistics over the whole file), name it, upload it resumably with a
 * progress bar, and create the dataset (`table/create`).
 */
export function UploadDialog(props: { isOpen: boolean; projectId?: string; onClose(): void; onCreated(d: Dataset): void }) {
  const { t, locale } = useDataT();
  const kindLabel = useValueKindLabel();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const previewer = useRef<Previewer | null>(null);
  const dataWorkers = useOptionalService(dataWorkerServiceRef);
  const [file, setFile] = useState<File | null>(null);
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<PreviewResult | null>(null);
  const [stats, setStats] = useState<PreviewStats | 'running' | { error: string } | null>(null);
  const [name, setName] = useState('');
  const [type, setType] = useState<DatasetType>('business');
  const [running, setRunning] = useState<Running | null>(null);
  const [creating, setCreating] = useState(false);
  const [naming, setNaming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const space = dataAccessApi.endpoints['data-access/freeSpace'].useQuery(undefined, { skip: !props.isOpen });
  const [init] = dataAccessApi.endpoints['data-access/uploadInit'].useMutation();
  const [parts] = dataAccessApi.endpoints['data-access/uploadParts'].useMutation();
  const [complete] = dataAccessApi.endpoints['data-access/uploadComplete'].useMutation();
  const [abort] = dataAccessApi.endpoints['data-access/uploadAbort'].useMutation();
  const [create] = dataAccessApi.endpoints['data-access/create'].useMutation();
  const [findNamed] = dataAccessApi.endpoints['data-access/list'].useLazyQuery();

  useEffect(() => {
    if (!props.isOpen) return;
    return () => {
      previewer.current?.dispose();
      previewer.current = null;
    };
  }, [props.isOpen]);

  const transport = useUploadTransport(init, parts, complete);

  const reset = () => {
    setFile(null);
    setResult(null);
    setStats(null);
    setError(null);
    setName('');
  };

  const pick = async (f: File) => {
    reset();
    setFile(f);
    setName(nameFromFile(f.name));
    setChecking(true);
    previewer.current ??= createPreviewer(dataWorkers);
    const p = previewer.current;
    try {
      const r = await p.inspect(f);
      setResult(r);
      if (r.ok) {
        setStats('running');
        p.stats(f).then(
          (s) => setStats(s),
          (e: unknown) => setStats({ error: e instanceof Error ? e.message : String(e) }),
        );
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setChecking(false);
    }
  };

  // One sentence per problem, from the worker's reason and details (the catalogue's message for
  // the code, e.g. "Duplicated column name", would only say the same thing again before it).
  const issueText = (i: PreviewIssue) => {
    const d = i.details ?? {};
    const num = (k: string) => (typeof d[k] === 'number' ? d[k] : undefined);
    const columns = Array.isArray(d.columns) ? d.columns.join(', ') : '';
    if (i.reason === 'empty' && result?.kind === 'csv' && (result.columns?.length ?? 0) > 0) return t('upload.reasons.noRows');
    if (i.reason === 'parse' && num('line') !== undefined) {
      return num('fields') !== undefined
        ? t('upload.reasons.parseFields', { line: num('line')!, fields: num('fields')!, expected: num('expected') ?? '' })
        : t('upload.reasons.parseQuote', { line: num('line')! });
    }
    if (i.reason === 'parse' && num('row') !== undefined) return t('upload.reasons.parseRow', { row: num('row')! });
    return t(`upload.reasons.${i.reason}` as 'upload.reasons.empty', { delimiter: String(d.delimiter ?? ''), columns });
  };

  const nameError = !name.trim() ? t('import.required') : name.trim().length > LIMITS.datasetNameMax ? t('import.tooLong') : null;
  const free = space.data?.freeBytes;
  const noSpace = file && free !== undefined && file.size > free ? t('upload.noSpace', { free: formatBytes(free), size: formatBytes(file.size) }) : null;
  const canUpload = !!file && !!result?.ok && !nameError && !noSpace && !running && !creating && !naming;

  const start = async () => {
    if (!file || !canUpload) return;
    // A name the user already gave a dataset (names are per user, any case) is refused before
    // the file is sent, not after the whole upload; the server checks again when it creates.
    setError(null);
    setNaming(true);
    const wanted = name.trim().toLowerCase();
    const named = await findNamed({ page: 1, pageSize: 100, keyword: name.trim() })
      .unwrap()
      .catch(() => null)
      .finally(() => setNaming(false));
    if (named?.rows.some((d) => d.name.toLowerCase() === wanted)) {
      setError(messageOf('tableNameUsed', locale));
      return;
    }
    const controller = new AbortController();
    setRunning({ sent: 0, total: file.size, resumed: false, uploadId: null, controller });
    setError(null);
    try {
      const stored = await uploadResumable(file, transport, {
        store: window.localStorage,
        signal: controller.signal,
        onProgress: (p) => setRunning((r) => (r && r.controller === controller ? { ...r, sent: p.sent, resumed: p.resumed, uploadId: p.uploadId } : r)),
      });
      setRunning(null);
      setCreating(true);
      const d = await create({ fileId: stored.fileId, name: name.trim(), type, ...(props.projectId ? { projectId: props.projectId } : {}) }).unwrap();
      notify({ message: t('upload.done', { name: d.name }), intent: 'success', icon: 'tick' });
      reset();
      props.onCreated(d);
    } catch (err) {
      if (err instanceof UploadStopped) notify({ message: t('upload.stopped'), intent: 'primary' });
      else setError(failureMessage(err, t('upload.failed')) ?? t('upload.failed'));
    } finally {
      setRunning((r) => (r && r.controller === controller ? null : r));
      setCreating(false);
    }
  };

  const discard = async () => {
    const r = running;
    if (!r) return;
    r.controller.abort();
    if (r.uploadId) {
      try {
        await abort({ uploadId: r.uploadId }).unwrap();
      } catch {
        /* already gone */
      }
      forgetUpload(window.localStorage, r.uploadId);
    }
  };

  const busy = !!running || creating || naming;
  // The busy Upload drops the focus to the page (so do Stop and Discard, gone when it stops); a
  // failed or stopped upload leaves the dialog open: the focus comes back to Upload, or to Close.
  const startRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useFocusBackWhenDone(busy, () => (startRef.current?.disabled ? closeRef.current : startRef.current));
  const percent = running ? Math.floor((100 * running.sent) / Math.max(1, running.total)) : 0;
  // A file that cannot be read as csv is said once: its first problem (by line), with the line.
  const firstLine = (i: PreviewIssue) => (typeof i.details?.line === 'number' ? i.details.line : Infinity);
  const firstParse = (result?.issues ?? []).filter((i) => i.reason === 'parse').sort((a, b) => firstLine(a) - firstLine(b))[0];
  const shown = (result?.issues ?? []).filter((i) => i.reason !== 'parse' || i === firstParse);
  const fatal = shown.filter((i) => i.fatal);
  const warnings = shown.filter((i) => !i.fatal);

  return (
    <Dialog isOpen={props.isOpen} onClose={busy ? undefined : props.onClose} title={t('upload.title')} icon="upload" style={{ width: 900, maxWidth: '95vw' }}>
      <DialogBody>
        <p className="bp6-text-muted">{t('upload.hint')}</p>
        <input
          ref={input}
          type="file"
          accept=".csv,.npz,.h5"
          hidden
          data-testid="upload-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void pick(f);
          }}
        />
        <Button icon="folder-open" text={t('upload.choose')} onClick={() => input.current?.click()} disabled={busy} data-testid="upload-choose" />
        {running && (
          <div style={{ marginTop: 12 }} data-testid="upload-running">
            <ProgressBar value={running.sent / Math.max(1, running.total)} intent="primary" animate stripes data-testid="upload-progress" />
            <p data-testid="upload-progress-text" data-percent={percent}>
              {t('upload.uploading', { sent: formatBytes(running.sent), total: formatBytes(running.total), percent })}
            </p>
            {running.resumed && (
              <Callout intent="success" icon="refresh" data-testid="upload-resumed">
                {t('upload.resumed')}
              </Callout>
            )}
          </div>
        )}
        {checking && (
          <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 12 }} data-testid="upload-checking">
            <Spinner size={16} /> {t('upload.checking')}
          </div>
        )}
        {error && (
          <Callout intent="danger" icon="error" style={{ marginTop: 12 }} data-testid="upload-error">
            {error}
          </Callout>
        )}
        {file && result && (
          <p style={{ marginTop: 12 }} data-testid="upload-checked">
            {t('upload.checked', { name: file.name, size: formatBytes(file.size), ms: Math.round(result.elapsedMs) })}
          </p>
        )}
        {fatal.length > 0 && (
          <Callout intent="danger" icon="error" title={t('upload.rejected')} data-testid="upload-issues">
            <ul>
              {fatal.map((i, k) => (
                <li key={k} data-testid={`upload-issue-${i.reason}`}>
                  {issueText(i)}
                </li>
              ))}
            </ul>
          </Callout>
        )}
        {warnings.length > 0 && (
          <Callout intent="warning" icon="warning-sign" style={{ marginTop: 8 }}>
            <ul>
              {warnings.map((i, k) => (
                <li key={k}>{issueText(i)}</li>
              ))}
            </ul>
          </Callout>
        )}
        {result?.columns && result.rows && (
          <div style={{ marginTop: 12, maxHeight: 240, overflow: 'auto' }}>
            <h4 className="bp6-heading">{t('upload.firstRows')}</h4>
            <PreviewTable columns={result.columns.map((c) => ({ name: c.name, type: c.kind }))} rows={result.rows.slice(0, 10)} data-testid="upload-preview" />
          </div>
        )}
        {result?.arrays && (
          <div style={{ marginTop: 12 }}>
            <h4 className="bp6-heading">{t('upload.arrays')}</h4>
            <HTMLTable compact data-testid="upload-arrays">
              <tbody>
                {result.arrays.map((a) => (
                  <tr key={a.name}>
                    <td>{a.name}</td>
                    <td>{a.dtype}</td>
                    <td>[{a.shape.join(', ')}]</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {stats && (
          <div style={{ marginTop: 12, maxHeight: 220, overflow: 'auto' }}>
            <h4 className="bp6-heading">{t('upload.statsTitle')}</h4>
            {stats === 'running' ? (
              <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
                <Spinner size={16} /> {t('upload.statsRunning')}
              </div>
            ) : 'error' in stats ? (
              <Callout intent="warning">{t('upload.statsFailed', { message: stats.error })}</Callout>
            ) : (
              <HTMLTable compact striped data-testid="upload-stats">
                <thead>
                  <tr>
                    {(['column', 'kind', 'count', 'nulls', 'min', 'max', 'mean', 'distinct'] as const).map((k) => (
                      <th key={k}>{t(`upload.stat.${k}`)}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {stats.columns.map((c) => (
                    <tr key={c.name}>
                      <td>{c.name}</td>
                      <td title={c.kind}>{kindLabel(c.kind)}</td>
                      <td>{c.count}</td>
                      <td>{c.nulls + c.nan}</td>
                      <td>{cellText(c.min)}</td>
                      <td>{cellText(c.max)}</td>
                      <td>{cellText(c.mean)}</td>
                      <td>
                        {c.distinctApprox ? '≈' : ''}
                        {c.distinct}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            )}
          </div>
        )}
        {result?.ok && (
          <div style={{ display: 'flex', gap: 16, marginTop: 12 }}>
            <FormGroup label={t('upload.name')} labelFor="upload-name" helperText={nameError ?? t('upload.nameHelp')} intent={nameError ? 'danger' : 'none'}>
              <InputGroup id="upload-name" value={name} onChange={(e) => setName(e.target.value)} disabled={busy} intent={nameError ? 'danger' : 'none'} data-testid="upload-name" />
            </FormGroup>
            <FormGroup label={t('upload.type')} labelFor="upload-type">
              <HTMLSelect id="upload-type" value={type} onChange={(e) => setType(e.target.value as DatasetType)} disabled={busy} data-testid="upload-type">
                {DATASET_TYPES.map((x) => (
                  <option key={x} value={x}>
                    {t(`types.${x}`)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          </div>
        )}
        {noSpace && (
          <Callout intent="danger" data-testid="upload-no-space">
            {noSpace}
          </Callout>
        )}
        {creating && (
          <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 12 }} data-testid="upload-creating">
            <Spinner size={16} /> {t('upload.creating')}
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {running && <Button text={t('upload.stop')} onClick={() => running.controller.abort()} data-testid="upload-stop" />}
            {running && <Button intent="danger" text={t('upload.discard')} onClick={() => void discard()} data-testid="upload-discard" />}
            {!busy && <Button ref={closeRef} text={t('upload.close')} onClick={props.onClose} />}
            {/* eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to Start or Close when done */}
            <Button ref={startRef} intent="primary" icon="upload" text={t('upload.start')} disabled={!canUpload} loading={busy} onClick={() => void start()} data-testid="upload-start" />
          </>
        }
      />
    </Dialog>
  );
}
