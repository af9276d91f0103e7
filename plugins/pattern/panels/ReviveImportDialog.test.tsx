/**
 * "Import a REVIVE folder" from the graph editor's toolbar: the files picked, the data file's
 * upload (the storage calls; its one part already on the server, so no part goes over XHR here),
 * the unnamed-column question, what was mapped, the catalogue's errors, both languages; the graph
 * and the primary dataset are read again after the import.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { patternPlugin } from '../index';
import { FRIDGE_YAML } from '../model/fixtures';
import { importReviveYaml } from '../model/yaml';

const panel = patternPlugin.panels.find((p) => p.id === 'pattern.editor')!;
const S1 = 'a'.repeat(32);
const FILE_ID = 'f'.repeat(32);
const CSV = ',temperature,door_open,action,next_temperature\n0,1.5,0,0.2,1.4\n1,1.4,0,0.1,1.3\n';

function fileOf(name: string, text: string): File {
  const f = new File([text], name);
  if (typeof (f as { text?: unknown }).text !== 'function') Object.defineProperty(f, 'text', { value: async () => text });
  return f;
}

const imported = {
  status: 'imported',
  tableId: 't'.repeat(32),
  objectiveId: 'o'.repeat(32),
  nodes: [
    { name: 'temperature', role: 'state', fields: ['obs_temp'] },
    { name: 'action', role: 'agent', fields: ['power'] },
  ],
  report: {
    rows: 2,
    trajectories: 1,
    trajectorySource: 'transitions',
    mapped: [
      { from: 'temperature', to: ['obs_temp'] },
      { from: 'next_temperature', to: ['next_obs_temp'] },
    ],
    unused: [],
    indexColumn: { position: 0, action: 'named', name: 'row' },
    bounds: [
      { field: 'obs_temp', node: 'temperature', min: -20, max: 20, from: 'yaml' },
      { field: 'power', node: 'action', min: null, max: null, from: 'data' },
    ],
    warnings: [],
  },
};

function host(locale: 'en-US' | 'zh-CN' = 'en-US') {
  const h = createTestHost({ plugins: [patternPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/pattern', search: { projectId: 'P1', solutionId: S1 } } });
  const { graph } = importReviveYaml(FRIDGE_YAML);
  let done = false;
  h.mockCall('solution/getPattern', () => ({ data: { solutionId: S1, graph: done ? graph : null, files: [], updatedAt: null } }));
  h.mockCall('solution/get', { data: { solutionId: S1, projectId: 'P1', name: 's', goalType: 'policy_search', dataType: 'data_driven' } });
  h.mockCall('solution/getTableCorrelation', { data: { solutionId: S1, correlation: null } });
  h.mockCall('table/list', { data: { rows: [], total: 0, page: 1, pageSize: 100 } });
  h.mockCall('file/uploadpartinit', (body) => {
    const b = body as { name: string; size: number };
    return { data: { uploadId: 'u'.repeat(32), name: b.name, purpose: 'file', size: b.size, partSize: 8 << 20, partCount: 1, state: 'uploading', parts: [1], receivedBytes: b.size, fileId: null, createdAt: '2026-11-27T00:00:00.000Z' } };
  });
  h.mockCall('file/uploadPartComplete', { data: { fileId: FILE_ID, name: 'refrigerator.csv', path: '/refrigerator.csv', kind: 'upload', size: CSV.length, userId: 'u1', createdAt: '2026-11-27T00:00:00.000Z', updatedAt: '2026-11-27T00:00:00.000Z', deletedAt: null } });
  const mark = () => (done = true);
  return { h, mark };
}

async function pickFiles() {
  fireEvent.click(await screen.findByTestId('pattern-revive'));
  fireEvent.change(await screen.findByTestId('revive-yaml-input'), { target: { files: [fileOf('refrigeration.yaml', FRIDGE_YAML)] } });
  fireEvent.change(screen.getByTestId('revive-data-input'), { target: { files: [fileOf('refrigerator.csv', CSV)] } });
  fireEvent.change(screen.getByTestId('revive-reward-input'), { target: { files: [fileOf('reward.py', 'def get_reward(data):\n    return data["obs_temp"]\n')] } });
  await waitFor(() => expect((screen.getByTestId('revive-table-name') as HTMLInputElement).value).toBe('refrigerator'));
}

describe('REVIVE folder import', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('uploads the data file once, asks about the unnamed column, shows what was mapped and reloads the graph', async () => {
    const { h, mark } = host();
    h.mockCall('solution/importRevive', (body) => {
      const b = body as { indexColumn?: unknown };
      if (!b.indexColumn) return { data: { status: 'indexColumn', position: 0, sample: ['0', '1'] } };
      mark();
      return { data: imported };
    });
    await renderPanel(panel, { host: h });
    await pickFiles();
    fireEvent.click(screen.getByTestId('revive-import'));
    const question = await screen.findByTestId('revive-index-question');
    expect(question.textContent).toContain('Column 1 has no name');
    expect(question.textContent).toContain('0, 1');
    fireEvent.click(screen.getByLabelText('Keep it, named'));
    fireEvent.change(screen.getByTestId('revive-index-name-input'), { target: { value: 'row' } });
    fireEvent.click(screen.getByTestId('revive-import'));
    const report = await screen.findByTestId('revive-report');
    expect(report.textContent).toContain('2 rows in 1 trajectories');
    expect(report.textContent).toContain('A reward was created');
    const mapped = screen.getByTestId('revive-mapped').textContent!;
    expect(mapped).toContain('next_temperature');
    expect(mapped).toContain('next_obs_temp');
    expect(screen.getByTestId('revive-index-column').textContent).toBe('The unnamed column 1 was kept as "row".');
    const bounds = screen.getByTestId('revive-bounds').textContent!;
    expect(bounds).toContain('-20');
    expect(bounds).toContain('YAML (kept)');
    expect(bounds).toContain('data (at training)');
    const sent = h.calls.filter((c) => c.url === 'solution/importRevive').map((c) => c.body as Record<string, unknown>);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ solutionId: S1, yaml: FRIDGE_YAML, dataFileId: FILE_ID, tableName: 'refrigerator', reward: expect.stringContaining('get_reward') });
    expect(sent[0]!.indexColumn).toBeUndefined();
    expect(sent[1]).toMatchObject({ dataFileId: FILE_ID, indexColumn: { name: 'row' } });
    // one upload for both calls
    expect(h.calls.filter((c) => c.url === 'file/uploadpartinit')).toHaveLength(1);
    // the graph the server built is read again and drawn; the primary dataset too
    for (const n of ['temperature', 'action', 'next_temperature']) expect(await screen.findByTestId(`pattern-node-${n}`, {}, { timeout: 10_000 })).toBeTruthy();
    expect(h.calls.filter((c) => c.url === 'solution/getTableCorrelation').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the catalogue error with the feature it names, in Chinese', async () => {
    const { h } = host('zh-CN');
    h.mockCall('solution/importRevive', { code: 8051, message: 'REVIVE 文件夹使用了本平台不支持的功能（字段提示中给出名称）', errors: { yaml: 'traj_id' } });
    await renderPanel(panel, { host: h });
    await pickFiles();
    fireEvent.click(screen.getByTestId('revive-import'));
    const error = await screen.findByTestId('revive-error');
    expect(error.dataset.code).toBe('8051');
    expect(error.textContent).toContain('不支持的功能');
    expect(error.textContent).toContain('traj_id');
    expect(screen.getByTestId('pattern-revive').textContent).toBe('REVIVE 文件夹');
  });

  it('needs the YAML and a data file of a known kind before anything is sent', async () => {
    const { h } = host();
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('pattern-revive'));
    fireEvent.click(await screen.findByTestId('revive-import'));
    expect((await screen.findByTestId('revive-problem')).textContent).toBe('Pick the YAML file and the data file.');
    fireEvent.change(screen.getByTestId('revive-yaml-input'), { target: { files: [fileOf('a.yaml', FRIDGE_YAML)] } });
    fireEvent.change(screen.getByTestId('revive-data-input'), { target: { files: [fileOf('data.parquet', 'x')] } });
    await waitFor(() => expect((screen.getByTestId('revive-table-name') as HTMLInputElement).value).toBe('data'));
    fireEvent.click(screen.getByTestId('revive-import'));
    await waitFor(() => expect(screen.getByTestId('revive-problem').textContent).toBe('The data file must be .npz, .h5, .hdf5 or .csv.'));
    expect(h.calls.some((c) => c.url === 'file/uploadpartinit' || c.url === 'solution/importRevive')).toBe(false);
  });
});
