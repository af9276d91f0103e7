/**
 * "Import a REVIVE folder" (issue 22 item 5, `solution/importRevive`): the user picks a REVIVE
 * folder's YAML, its data file (npz, h5 or csv, uploaded as a resumable upload) and optionally
 * its `reward.py` and the Python files of expert functions. The server builds the solution's
 * graph, a data table of the YAML's fields with its table correlation, and the reward. When the
 * CSV carries pandas' unnamed row-number column the server asks first: drop it or keep it under
 * a name. The dialog then shows what was mapped (node-named columns to fields, the index
 * column, the bounds kept from the YAML or taken from the data, warnings), or the catalogue's
 * error with the engine's detail.
 */
import { useRef, useState } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FileInput, FormGroup, HTMLTable, InputGroup, ProgressBar, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import type { FileItem, ReviveImportReply, ReviveImportRequest } from '@decisio/domain';
import { Dialog, isApiError, partSizeFor, uploadResumable, useFocusBackWhenDone, useUploadTransport, type ApiError } from '@decisio/sdk-plugin';
import { patternApi } from '../api';
import { usePatternT } from '../i18n';

/** Uploads the data file; answers the stored file's id. */
export type ReviveUpload = (file: File, onProgress: (sent: number, total: number) => void, signal: AbortSignal) => Promise<string>;

export interface ReviveImportDialogProps {
  solutionId: string;
  isOpen: boolean;
  onClose(): void;
  /** After a successful import (the graph was replaced on the server). */
  onImported(reply: Extract<ReviveImportReply, { status: 'imported' }>): void;
  /** The data file upload (default: the resumable upload of the storage calls). */
  upload?: ReviveUpload;
}

const DATA_FILE = /\.(npz|h5|hdf5|csv)$/i;

/** A table name from the data file's name (letters, digits, `_`; at most 64). */
export function tableNameOf(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_\u4e00-\u9fa5 -]+/g, '_').trim();
  return (base || 'revive').slice(0, 64);
}

async function readAll(list: FileList | null): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of Array.from(list ?? [])) out[f.name] = await f.text();
  return out;
}

function useStorageUpload(): ReviveUpload {
  const [init] = patternApi.endpoints['pattern/uploadInit'].useMutation();
  const [parts] = patternApi.endpoints['pattern/uploadParts'].useMutation();
  const [complete] = patternApi.endpoints['pattern/uploadComplete'].useMutation();
  const transport = useUploadTransport(init, parts, complete);
  return async (file, onProgress, signal) => {
    const stored: FileItem = await uploadResumable(file, transport, { purpose: 'file', partSize: partSizeFor(file.size), compress: true, store: window.localStorage, signal, onProgress: (p) => onProgress(p.sent, p.total) });
    return stored.fileId;
  };
}

type Imported = Extract<ReviveImportReply, { status: 'imported' }>;

export function ReviveImportDialog(props: ReviveImportDialogProps) {
  const { t } = usePatternT();
  const storageUpload = useStorageUpload();
  const upload = props.upload ?? storageUpload;
  const [run, running] = patternApi.endpoints['pattern/importRevive'].useMutation();
  const [yaml, setYaml] = useState<{ name: string; text: string } | undefined>();
  const [data, setData] = useState<File | undefined>();
  const [reward, setReward] = useState<{ name: string; text: string } | undefined>();
  const [py, setPy] = useState<Record<string, string>>({});
  const [tableName, setTableName] = useState('');
  const [rewardName, setRewardName] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const [question, setQuestion] = useState<{ position: number; sample: string[] } | null>(null);
  const [indexChoice, setIndexChoice] = useState<'drop' | 'name'>('drop');
  const [indexName, setIndexName] = useState('row');
  const [done, setDone] = useState<Imported | null>(null);
  const uploaded = useRef<{ file: File; id: string } | null>(null);
  const abort = useRef<AbortController | null>(null);

  const reset = () => {
    setYaml(undefined);
    setData(undefined);
    setReward(undefined);
    setPy({});
    setTableName('');
    setRewardName('');
    setProblem(undefined);
    setError(undefined);
    setProgress(null);
    setQuestion(null);
    setDone(null);
    uploaded.current = null;
  };
  const close = () => {
    abort.current?.abort();
    reset();
    props.onClose();
  };

  const submit = async () => {
    setError(undefined);
    if (!yaml || !data) return setProblem(t('revive.required'));
    if (!DATA_FILE.test(data.name)) return setProblem(t('revive.dataType'));
    const name = (tableName || tableNameOf(data.name)).trim();
    if (question && indexChoice === 'name' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(indexName)) return setProblem(t('revive.indexNameInvalid'));
    setProblem(undefined);
    try {
      let fileId = uploaded.current?.file === data ? uploaded.current.id : null;
      if (!fileId) {
        abort.current = new AbortController();
        setProgress(0);
        fileId = await upload(data, (sent, total) => setProgress(total > 0 ? sent / total : 1), abort.current.signal);
        uploaded.current = { file: data, id: fileId };
      }
      setProgress(null);
      const body: ReviveImportRequest = {
        solutionId: props.solutionId,
        yaml: yaml.text,
        dataFileId: fileId,
        tableName: name,
        ...(reward ? { reward: reward.text, ...(rewardName.trim() ? { rewardName: rewardName.trim() } : {}) } : {}),
        ...(Object.keys(py).length ? { files: py } : {}),
        ...(question ? { indexColumn: indexChoice === 'drop' ? ('drop' as const) : { name: indexName } } : {}),
      };
      const r = await run(body).unwrap();
      if (r.status === 'indexColumn') {
        setQuestion({ position: r.position, sample: r.sample });
        return;
      }
      setQuestion(null);
      setDone(r);
      props.onImported(r);
    } catch (e) {
      setProgress(null);
      if (isApiError(e)) setError(e);
      else setProblem(String((e as Error)?.message ?? e));
    }
  };

  const busy = running.isLoading || progress !== null;
  // The busy Import drops the focus to the page, and the dialog stays open: it comes back to Close
  // (imported), or to Import / Continue (failed, or a question about the index column).
  const importRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useFocusBackWhenDone(busy, () => closeRef.current ?? importRef.current);
  const detail = error?.errors ? [error.errors.yaml, error.errors.dataFileId, error.errors.reward, ...Object.entries(error.errors).filter(([k]) => !['yaml', 'dataFileId', 'reward'].includes(k)).map(([k, v]) => `${k}: ${v}`)].filter(Boolean) : [];

  return (
    <Dialog isOpen={props.isOpen} onClose={close} title={t('revive.title')} icon="import" style={{ width: 720 }}>
      <DialogBody>
        {done ? (
          <ReviveReport reply={done} />
        ) : (
          <>
            <p>{t('revive.description')}</p>
            <FormGroup label={t('revive.yamlFile')} labelFor="revive-yaml-file">
              <FileInput
                fill
                text={yaml?.name ?? t('yaml.choose')}
                buttonText={t('yaml.choose')}
                inputProps={{ id: 'revive-yaml-file', accept: '.yaml,.yml', 'aria-label': t('revive.yamlFile'), ...({ 'data-testid': 'revive-yaml-input' } as object) }}
                onInputChange={(e) => {
                  const f = e.currentTarget.files?.[0];
                  if (f) void f.text().then((text) => setYaml({ name: f.name, text }));
                }}
              />
            </FormGroup>
            <FormGroup label={t('revive.dataFile')} labelFor="revive-data-file" helperText={t('revive.dataHelp')}>
              <FileInput
                fill
                text={data?.name ?? t('yaml.choose')}
                buttonText={t('yaml.choose')}
                inputProps={{ id: 'revive-data-file', accept: '.npz,.h5,.hdf5,.csv', 'aria-label': t('revive.dataFile'), ...({ 'data-testid': 'revive-data-input' } as object) }}
                onInputChange={(e) => {
                  const f = e.currentTarget.files?.[0];
                  if (!f) return;
                  setData(f);
                  setQuestion(null);
                  if (!tableName) setTableName(tableNameOf(f.name));
                }}
              />
            </FormGroup>
            <FormGroup label={t('revive.tableName')} labelFor="revive-table-name">
              <InputGroup id="revive-table-name" value={tableName} maxLength={64} onChange={(e) => setTableName(e.currentTarget.value)} data-testid="revive-table-name" />
            </FormGroup>
            <FormGroup label={t('revive.rewardFile')} labelFor="revive-reward-file" helperText={t('revive.rewardHelp')}>
              <FileInput
                fill
                text={reward?.name ?? t('yaml.choose')}
                buttonText={t('yaml.choose')}
                inputProps={{ id: 'revive-reward-file', accept: '.py', 'aria-label': t('revive.rewardFile'), ...({ 'data-testid': 'revive-reward-input' } as object) }}
                onInputChange={(e) => {
                  const f = e.currentTarget.files?.[0];
                  if (f) void f.text().then((text) => setReward({ name: f.name, text }));
                }}
              />
            </FormGroup>
            {reward && (
              <FormGroup label={t('revive.rewardName')} labelFor="revive-reward-name">
                <InputGroup id="revive-reward-name" value={rewardName} maxLength={20} placeholder="reward" onChange={(e) => setRewardName(e.currentTarget.value)} />
              </FormGroup>
            )}
            <FormGroup label={t('revive.pyFiles')} labelFor="revive-py-files">
              <FileInput
                fill
                text={Object.keys(py).join(', ') || t('yaml.choose')}
                buttonText={t('yaml.choose')}
                inputProps={{ id: 'revive-py-files', accept: '.py', multiple: true, 'aria-label': t('revive.pyFiles') }}
                onInputChange={(e) => void readAll(e.currentTarget.files).then(setPy)}
              />
            </FormGroup>
            {question && (
              <Callout intent="primary" icon="help" title={t('revive.indexTitle')} data-testid="revive-index-question">
                <p>{t('revive.indexQuestion', { position: question.position + 1, sample: question.sample.join(', ') })}</p>
                <RadioGroup selectedValue={indexChoice} onChange={(e) => setIndexChoice(e.currentTarget.value as 'drop' | 'name')} inline>
                  <Radio value="drop" label={t('revive.indexDrop')} data-testid="revive-index-drop" />
                  <Radio value="name" label={t('revive.indexName')} data-testid="revive-index-name" />
                </RadioGroup>
                {indexChoice === 'name' && <InputGroup value={indexName} maxLength={64} aria-label={t('revive.indexName')} onChange={(e) => setIndexName(e.currentTarget.value)} data-testid="revive-index-name-input" />}
              </Callout>
            )}
            {progress !== null && <ProgressBar value={progress} intent="primary" aria-label={t('revive.uploading')} />}
            {problem && (
              <Callout intent="warning" compact data-testid="revive-problem">
                {problem}
              </Callout>
            )}
            {error && (
              <Callout intent="danger" title={error.message} data-testid="revive-error" data-code={error.code}>
                {detail.length > 0 && (
                  <ul style={{ margin: 0 }}>
                    {detail.map((d) => (
                      <li key={d}>{d}</li>
                    ))}
                  </ul>
                )}
              </Callout>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          done ? (
            <Button ref={closeRef} intent="primary" text={t('revive.close')} onClick={close} data-testid="revive-close" />
          ) : (
            <>
              <Button text={t('yaml.cancel')} onClick={close} />
              {/* eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to Close or Import when done */}
              <Button ref={importRef} intent="primary" loading={busy} text={question ? t('revive.continue') : t('revive.import')} onClick={() => void submit()} data-testid="revive-import" />
            </>
          )
        }
      />
    </Dialog>
  );
}

const fmt = (v: number | null) => (v === null ? '–' : String(v));

/** What the import made and mapped. */
export function ReviveReport({ reply }: { reply: Imported }) {
  const { t } = usePatternT();
  const r = reply.report;
  return (
    <div data-testid="revive-report" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Callout intent="success" icon="tick" title={t('revive.imported')}>
        {t('revive.summary', { rows: r.rows, trajectories: r.trajectories, source: t(`revive.source.${r.trajectorySource}`) })}
        {reply.objectiveId ? ` ${t('revive.rewardCreated')}` : ''}
      </Callout>
      <HTMLTable compact striped data-testid="revive-nodes">
        <caption style={{ textAlign: 'start' }}>{t('revive.nodes')}</caption>
        <tbody>
          {reply.nodes.map((n) => (
            <tr key={n.name}>
              <th>{n.name}</th>
              <td>{t(`roles.${n.role}` as Parameters<typeof t>[0])}</td>
              <td>{n.fields.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <HTMLTable compact striped data-testid="revive-mapped">
        <caption style={{ textAlign: 'start' }}>{t('revive.mapped')}</caption>
        <thead>
          <tr>
            <th>{t('revive.from')}</th>
            <th>{t('revive.to')}</th>
          </tr>
        </thead>
        <tbody>
          {r.mapped.map((m) => (
            <tr key={m.from}>
              <td>{m.from}</td>
              <td>{m.to.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p data-testid="revive-index-column">
        {r.indexColumn ? (r.indexColumn.action === 'drop' ? t('revive.indexDropped', { position: r.indexColumn.position + 1 }) : t('revive.indexKept', { position: r.indexColumn.position + 1, name: r.indexColumn.name ?? '' })) : t('revive.noIndexColumn')}
      </p>
      {r.unused.length > 0 && <p data-testid="revive-unused">{t('revive.unused', { columns: r.unused.join(', ') })}</p>}
      <HTMLTable compact striped data-testid="revive-bounds">
        <caption style={{ textAlign: 'start' }}>{t('revive.bounds')}</caption>
        <thead>
          <tr>
            <th>{t('revive.field')}</th>
            <th>{t('revive.node')}</th>
            <th>min</th>
            <th>max</th>
            <th>{t('revive.boundFrom')}</th>
          </tr>
        </thead>
        <tbody>
          {r.bounds.map((b) => (
            <tr key={`${b.node}.${b.field}`}>
              <td>{b.field}</td>
              <td>{b.node}</td>
              <td>{fmt(b.min)}</td>
              <td>{fmt(b.max)}</td>
              <td>
                <Tag minimal intent={b.from === 'yaml' ? 'primary' : 'none'}>{t(`revive.boundSource.${b.from}`)}</Tag>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {r.warnings.length > 0 && (
        <Callout intent="warning" title={t('revive.warnings')} data-testid="revive-warnings">
          <ul style={{ margin: 0 }}>
            {r.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Callout>
      )}
    </div>
  );
}
