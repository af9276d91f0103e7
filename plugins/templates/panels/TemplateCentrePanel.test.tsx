import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createTestHost, withHost } from '@decisio/sdk-plugin/testing';
import { templatesPlugin } from '../index';
import { industryOf, TemplateCentrePanel } from './TemplateCentrePanel';

const template = (id: 'electric' | 'coupon', agent: string, decisionFields: string[]) => ({
  id,
  name: { 'zh-CN': `${id} 模板`, 'en-US': `${id} template` },
  description: { 'zh-CN': '说明', 'en-US': 'About it' },
  task: id === 'electric' ? 'thermal' : 'inventory',
  colour: 'cyan',
  trajectories: 20,
  steps: 200,
  rows: 4000,
  columns: ['room', 'step', 'time', 'obs_temp'],
  trajectoryField: 'room',
  sequenceField: 'step',
  datetimeField: 'time',
  nodes: ['temperature', agent],
  agent,
  decisionFields,
  sample: { columns: ['room', 'step', 'obs_temp'], rows: [['1', '0', '3.1416']] },
});
const TEMPLATES = [template('electric', 'action', ['power_action']), template('coupon', 'decision', ['price', 'order_quantity'])];

function setup(opts: { pathname?: string; locale?: 'en-US' | 'zh-CN'; list?: unknown } = {}) {
  const host = createTestHost({ plugins: [templatesPlugin], locale: opts.locale ?? 'en-US', session: { token: 't', userId: 'u' }, location: { pathname: opts.pathname ?? '/template-center' } });
  host.mockCall('template/getTemplateList', opts.list ?? { code: 0, data: TEMPLATES });
  render(withHost(host, <TemplateCentrePanel panelId="templates.centre" />));
  return host;
}

describe('TemplateCentrePanel', () => {
  afterEach(cleanup);

  it('reads the industry from the path', () => {
    expect(industryOf('/template-center')).toBe('all');
    expect(industryOf('/template-center/industry/coupon')).toBe('coupon');
  });

  it('previews every template: graph nodes, what it decides, its data sample, and no invented results', async () => {
    setup();
    expect(await screen.findByText('electric template')).toBeTruthy();
    expect(screen.getByText('coupon template')).toBeTruthy();
    expect(screen.getByTestId('template-electric-nodes').textContent).toBe('temperatureaction');
    expect(screen.getByTestId('template-coupon-decides').textContent).toBe('The policy decides the node decision: price, order_quantity');
    expect(screen.getByTestId('template-electric-sample').textContent).toContain('3.1416');
    expect(screen.getByTestId('template-electric-results').textContent).toMatch(/^Not measured/);
  });

  it('filters by industry from the route, and the tabs navigate', async () => {
    const host = setup({ pathname: '/template-center/industry/coupon' });
    expect(await screen.findByText('coupon template')).toBeTruthy();
    expect(screen.queryByText('electric template')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Electric' }));
    expect(host.navigations.at(-1)?.pathname).toBe('/template-center/industry/electric');
  });

  it('creates a project from a template and opens its first step with the guide', async () => {
    const host = setup();
    host.mockCall('template/createProject', { code: 0, data: { project: { projectId: 'P1' }, templateId: 'electric', solutionId: 'S1', datasetId: 'D1', fileId: 'F1', objectiveId: 'O1' } });
    fireEvent.click(await screen.findByTestId('template-electric-create'));
    await waitFor(() => expect(host.navigations.at(-1)?.pathname).toBe('/workflow/table-correlation'));
    expect(host.calls.find((c) => c.url === 'template/createProject')!.body).toEqual({ templateId: 'electric' });
    expect(host.navigations.at(-1)?.search).toEqual({ projectId: 'P1', solutionId: 'S1', guide: 'true' });
  });

  it('says why a creation failed', async () => {
    const host = setup();
    host.mockCall('template/createProject', { code: 3005, data: null, message: 'Storage is full' });
    fireEvent.click(await screen.findByTestId('template-coupon-create'));
    expect(await screen.findByText(/The project could not be created/)).toBeTruthy();
  });

  it('shows the empty and error states in both languages', async () => {
    setup({ list: { code: 0, data: [] }, locale: 'zh-CN' });
    expect(await screen.findByText('该行业暂无模板')).toBeTruthy();
    cleanup();
    setup({ list: { code: 0, data: [] } });
    expect(await screen.findByText('No template in this industry')).toBeTruthy();
    cleanup();
    setup({ list: { code: 1, data: null, message: 'boom' } });
    expect(await screen.findByText('The templates could not be loaded.')).toBeTruthy();
    cleanup();
    setup({ list: { code: 1, data: null, message: 'boom' }, locale: 'zh-CN' });
    expect(await screen.findByText('模板加载失败。')).toBeTruthy();
  });

  it('renders the preview in Chinese', async () => {
    setup({ locale: 'zh-CN' });
    expect(await screen.findByText('electric 模板')).toBeTruthy();
    expect(screen.getByTestId('template-electric-results').textContent).toMatch(/^未测量/);
  });
});
