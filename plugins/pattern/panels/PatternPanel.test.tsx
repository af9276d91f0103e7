import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { compareLocaleBundles, navigationServiceRef, unsavedChanges } from '@decisio/sdk-plugin';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { patternPlugin } from '../index';
import { FRIDGE_EXPERT_YAML, FRIDGE_PY, FRIDGE_YAML } from '../model/fixtures';
import { importReviveYaml } from '../model/yaml';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';

const panel = patternPlugin.panels.find((p) => p.id === 'pattern.editor')!;
const search = { projectId: 'P1', solutionId: 'S1' };
const dataset = {
  tableId: 'T1',
  name: 'fridge',
  type: 'business',
  fileType: 'csv',
  fileName: 'fridge.csv',
  delimiter: ',',
  amount: 10,
  size: 100,
  columns: [
    { name: 'obs_temp', type: 'DOUBLE', kind: 'float', dataType: 'continuous', min: -20, max: 20, discreteNumber: null, values: null, hidden: false },
    { name: 'power', type: 'DOUBLE', kind: 'float', dataType: 'continuous', min: 0, max: 1, discreteNumber: null, values: null, hidden: false },
  ],
  projectId: 'P1',
  creatorId: 'u1',
  creatorName: 'a',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

function host(graph: unknown, locale: 'en-US' | 'zh-CN' = 'en-US') {
  const h = createTestHost({ plugins: [patternPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/pattern', search } });
  h.mockCall('solution/getPattern', { data: { solutionId: 'S1', graph, files: [], updatedAt: null } });
  h.mockCall('solution/get', { data: { solutionId: 'S1', projectId: 'P1', name: 's', goalType: 'policy_search', dataType: 'data_driven' } });
  h.mockCall('solution/getTableCorrelation', { data: { solutionId: 'S1', correlation: { primaryTableId: 'T1' } } });
  h.mockCall('table/list', { data: { rows: [dataset], total: 1, page: 1, pageSize: 100 } });
  h.mockCall('table/get', { data: dataset });
  return h;
}

function fileOf(name: string, text: string): File {
  const f = new File([text], name);
  // jsdom's File may lack text(); read it the way the browser does
  if (typeof (f as { text?: unknown }).text !== 'function') Object.defineProperty(f, 'text', { value: async () => text });
  return f;
}

describe('PatternPanel', () => {
  afterEach(() => cleanup());

  it('has the same keys and placeholders in both languages', () => {
    expect(compareLocaleBundles(zhCN, enUS)).toEqual([]);
  });

  it('shows the empty state and the dataset fields, in both languages', async () => {
    for (const [locale, title] of [['en-US', 'The graph is empty'], ['zh-CN', '决策图为空']] as const) {
      await renderPanel(panel, { host: host(null, locale) });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(await screen.findByTestId('pattern-column-obs_temp')).toBeTruthy();
      cleanup();
    }
  });

  it("names the canvas's zoom, fit and mini-map controls in the page's language", async () => {
    const { graph } = importReviveYaml(FRIDGE_YAML);
    await renderPanel(panel, { host: host(graph, 'zh-CN') });
    expect(await screen.findByTestId('pattern-node-action', {}, { timeout: 10_000 })).toBeTruthy();
    for (const name of ['放大', '缩小', '适应画布']) expect(screen.getByRole('button', { name }).getAttribute('title')).toBe(name);
    expect(screen.getByTestId('rf__controls').getAttribute('aria-label')).toBe('画布控件');
    expect(document.querySelector('.react-flow__minimap title')?.textContent).toBe('缩略图');
    expect(screen.queryByRole('button', { name: 'Zoom In' })).toBeNull();
  });

  it('asks for a solution when the link has none', async () => {
    const h = createTestHost({ plugins: [patternPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/pattern', search: {} } });
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('No solution chosen')).toBeTruthy();
  });

  it('renders a stored graph built from a REVIVE YAML and saves it after an edit', async () => {
    const { graph } = importReviveYaml(FRIDGE_YAML);
    const h = host(graph);
    h.mockCall('solution/setPattern', (body) => ({ data: { solutionId: 'S1', graph: (body as { graph: unknown }).graph, warnings: 0 } }));
    await renderPanel(panel, { host: h });
    for (const n of ['temperature', 'door_open', 'action', 'next_temperature']) expect(await screen.findByTestId(`pattern-node-${n}`, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('pattern-issue-count').textContent).toBe('No problems');
    expect(screen.getByTestId('pattern-dirty').textContent).toBe('Saved');

    // select a node, edit its name; saving waits until editing is finished
    fireEvent.click(screen.getByTestId('pattern-node-action'));
    fireEvent.click(await screen.findByTestId('pattern-edit'));
    const name = screen.getByTestId('pattern-node-name') as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'power_action' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('pattern-dirty').textContent).toBe('Unsaved changes'));
    fireEvent.click(screen.getByTestId('pattern-save'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Finish editing before saving.'));
    expect(h.calls.some((c) => c.url === 'solution/setPattern')).toBe(false);
    fireEvent.click(screen.getByTestId('pattern-finish-edit'));
    fireEvent.click(screen.getByTestId('pattern-save'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Decision graph saved'));
    const sent = h.calls.find((c) => c.url === 'solution/setPattern')!.body as { solutionId: string; graph: { nodes: { name: string }[] } };
    expect(sent.solutionId).toBe('S1');
    expect(sent.graph.nodes.map((n) => n.name)).toContain('power_action');
    expect(screen.getByTestId('pattern-dirty').textContent).toBe('Saved');

    // Ctrl+Z undoes the rename
    fireEvent.keyDown(screen.getByTestId('pattern-editor'), { key: 'z', ctrlKey: true });
    expect(await screen.findByTestId('pattern-node-action', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('asks before a navigation drops unsaved changes (Stay keeps them), and nothing once saved', async () => {
    const { graph } = importReviveYaml(FRIDGE_YAML);
    const h = host(graph);
    h.mockCall('solution/setPattern', (body) => ({ data: { solutionId: 'S1', graph: (body as { graph: unknown }).graph, warnings: 0 } }));
    await renderPanel(panel, { host: h });
    expect(await screen.findByTestId('pattern-node-action', {}, { timeout: 10_000 })).toBeTruthy();
    expect(unsavedChanges.hasUnsavedChanges()).toBe(false);
    fireEvent.click(screen.getByTestId('pattern-node-action'));
    fireEvent.click(await screen.findByTestId('pattern-edit'));
    const name = screen.getByTestId('pattern-node-name');
    fireEvent.change(name, { target: { value: 'power_action' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    fireEvent.click(screen.getByTestId('pattern-finish-edit'));
    await waitFor(() => expect(screen.getByTestId('pattern-dirty').textContent).toBe('Unsaved changes'));
    // the workbench's router asks the registry before a side-menu link or the palette navigates
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(true));
    let leave: boolean | undefined;
    act(() => void unsavedChanges.confirmLeave().then((r) => (leave = r)));
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Leave this page? Your unsaved changes will be lost.');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(leave).toBe(false));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), { timeout: 5000 });
    expect(screen.getByTestId('pattern-dirty').textContent).toBe('Unsaved changes');
    // closing or reloading the page asks the browser's question
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    fireEvent.click(screen.getByTestId('pattern-save'));
    await waitFor(() => expect(screen.getByTestId('pattern-dirty').textContent).toBe('Saved'));
    await waitFor(() => expect(unsavedChanges.hasUnsavedChanges()).toBe(false));
    await expect(unsavedChanges.confirmLeave()).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('disables adding nodes, the imports and Save for a view collaborator, with the reason as tooltip', async () => {
    const { graph } = importReviveYaml(FRIDGE_YAML);
    const h = host(graph);
    h.mockCall('project/getProject', { data: { projectId: 'P1', name: 'P', locked: false, right: 'view' } });
    await renderPanel(panel, { host: h });
    expect(await screen.findByTestId('pattern-node-action', {}, { timeout: 10_000 })).toBeTruthy();
    const reason = 'You can only view this project: ask its owner for the edit right to change it.';
    await waitFor(() => expect(screen.getByTestId('pattern-add-node').getAttribute('title')).toBe(reason));
    for (const id of ['pattern-add-node', 'pattern-yaml', 'pattern-revive', 'pattern-save']) {
      expect((screen.getByTestId(id) as HTMLButtonElement).disabled, id).toBe(true);
      expect(screen.getByTestId(id).getAttribute('title'), id).toBe(reason);
    }
    fireEvent.click(screen.getByTestId('pattern-add-node'));
    expect(screen.queryByTestId('pattern-add-agent')).toBeNull();
  });

  it("opens another solution's editor only on that solution's graph, never the previous one's", async () => {
    const { graph } = importReviveYaml(FRIDGE_YAML);
    const gate = heldBack();
    const h = host(null);
    h.mockCall('solution/getPattern', async (body) => {
      if ((body as { solutionId: string }).solutionId === 'S1') return { data: { solutionId: 'S1', graph, files: [], updatedAt: null } };
      await gate.wait;
      return { data: { solutionId: 'S2', graph: null, files: [], updatedAt: null } };
    });
    await renderPanel(panel, { host: h });
    expect(await screen.findByTestId('pattern-node-action', {}, { timeout: 10_000 })).toBeTruthy();
    act(() => h.services.get(navigationServiceRef).navigate('/workflow/pattern', { search: { projectId: 'P1', solutionId: 'S2' } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'solution/getPattern' && (c.body as { solutionId: string }).solutionId === 'S2')).toBe(true));
    // While S2's graph loads: no editor, so nothing of S1 to edit or save into S2.
    expect(screen.queryByTestId('pattern-editor')).toBeNull();
    expect(screen.queryByTestId('pattern-node-action')).toBeNull();
    gate.release();
    expect(await screen.findByText('The graph is empty')).toBeTruthy();
    expect(screen.queryByTestId('pattern-node-action')).toBeNull();
  });

  it('builds the graph from an uploaded YAML and refuses it without its Python file', async () => {
    const h = host(null);
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('pattern-yaml'));
    fireEvent.change(await screen.findByTestId('pattern-yaml-input'), { target: { files: [fileOf('fridge.yaml', FRIDGE_EXPERT_YAML)] } });
    await waitFor(() => expect(screen.getByText('fridge.yaml', { selector: '.bp6-file-upload-input' })).toBeTruthy());
    fireEvent.click(screen.getByTestId('pattern-yaml-build'));
    expect((await screen.findByTestId('pattern-yaml-error')).textContent).toContain('expert_function.py');
    fireEvent.change(screen.getByTestId('pattern-py-input'), { target: { files: [fileOf('expert_function.py', FRIDGE_PY)] } });
    await waitFor(() => expect(screen.getByText('expert_function.py', { selector: '.bp6-file-upload-input' })).toBeTruthy());
    fireEvent.click(screen.getByTestId('pattern-yaml-build'));
    expect(await screen.findByTestId('pattern-node-next_temperature', {}, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(h.toasts.some((t) => t.message === 'Graph built from fridge.yaml')).toBe(true));
    expect(screen.getByTestId('pattern-issue-count').textContent).toBe('No problems');
  });

  it('edits a node function in the code editor and sends its file with the graph', async () => {
    const { graph } = importReviveYaml(FRIDGE_YAML);
    const h = host(graph);
    h.mockCall('solution/setPattern', (body) => ({ data: { solutionId: 'S1', graph: (body as { graph: unknown }).graph, warnings: 0 } }));
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('pattern-node-next_temperature', {}, { timeout: 10_000 }));
    fireEvent.click(await screen.findByTestId('pattern-edit'));
    fireEvent.change(screen.getByTestId('pattern-function-kind'), { target: { value: 'python' } });
    const code = (await screen.findByTestId('pattern-function-code')) as HTMLTextAreaElement;
    expect(code.value).toContain('def next_temperature(data)');
    fireEvent.change(code, { target: { value: FRIDGE_PY } });
    fireEvent.click(screen.getByTestId('pattern-finish-edit'));
    fireEvent.click(screen.getByTestId('pattern-save'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Decision graph saved'));
    const sent = h.calls.find((c) => c.url === 'solution/setPattern')!.body as { files: Record<string, string>; graph: { nodes: { name: string; function?: { file: string } }[] } };
    expect(sent.files).toEqual({ 'expert_function.py': FRIDGE_PY });
    expect(sent.graph.nodes.find((n) => n.name === 'next_temperature')!.function).toMatchObject({ kind: 'python', file: 'expert_function.py', function: 'next_temperature' });
  });
});
