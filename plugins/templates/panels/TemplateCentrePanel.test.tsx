import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { definePlugin, type PluginManifest } from '@decisio/sdk-plugin';
import { createTestHost, withHost } from '@decisio/sdk-plugin/testing';
import { templatesPlugin } from '../index';
import { industryOf, TemplateCentrePanel } from './TemplateCentrePanel';

const INDUSTRY_NAMES = { electric: { 'zh-CN': '电力', 'en-US': 'Electric' }, coupon: { 'zh-CN': '优惠券', 'en-US': 'Coupon' } };
const REPORT = {
  title: { 'zh-CN': '历史控制器', 'en-US': 'The logged controller' },
  basis: { 'zh-CN': '在 4000 行上测得', 'en-US': 'Measured on 4000 rows' },
  figures: [{ id: 'meanPower', label: { 'zh-CN': '平均功率', 'en-US': 'Mean power' }, value: 2.34567, digits: 3 }],
};
const template = (id: 'electric' | 'coupon', agent: string, decisionFields: string[]) => ({
  id,
  industry: id,
  industryName: INDUSTRY_NAMES[id],
  report: id === 'electric' ? REPORT : null,
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

function setup(opts: { pathname?: string; locale?: 'en-US' | 'zh-CN'; list?: unknown; plugins?: PluginManifest[] } = {}) {
  const host = createTestHost({ plugins: [templatesPlugin, ...(opts.plugins ?? [])], locale: opts.locale ?? 'en-US', session: { token: 't', userId: 'u' }, location: { pathname: opts.pathname ?? '/template-center' } });
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
    // The electric template's report renderer measured figures; the coupon one here has none.
    expect(screen.getByTestId('template-electric-results').textContent).toContain('The logged controller');
    expect(screen.getByTestId('template-electric-figure-meanPower').textContent).toBe('Mean power2.346');
    expect(screen.getByTestId('template-coupon-results').textContent).toMatch(/^Not measured/);
  });

  it('shows a template plugin\'s own report view in place of the figures', async () => {
    const acme = definePlugin({
      id: 'acme-template',
      templates: [
        {
          id: 'acme-template.electric',
          templateId: 'electric',
          titleKey: 'x',
          reportView: async () =>
            function AcmeReport({ template }) {
              return <p data-testid="acme-report">custom view of {template.id}: {template.report!.figures.length} figures</p>;
            },
        },
      ],
    });
    setup({ plugins: [acme] });
    expect((await screen.findByTestId('acme-report')).textContent).toBe('custom view of electric: 1 figures');
    expect(screen.queryByTestId('template-electric-figure-meanPower')).toBeNull();
  });

  it('links a template to its demo page when its plugin names one, in both languages', async () => {
    const acme = definePlugin({ id: 'acme-template', templates: [{ id: 'acme-template.electric', templateId: 'electric', titleKey: 'x', demoPath: '/electric' }] });
    const host = setup({ plugins: [acme] });
    const demo = await screen.findByTestId('template-electric-demo');
    expect(demo.textContent).toBe('Try the demo');
    expect(screen.queryByTestId('template-coupon-demo')).toBeNull();
    fireEvent.click(demo);
    expect(host.navigations.at(-1)?.pathname).toBe('/electric');
    cleanup();
    setup({ plugins: [acme], locale: 'zh-CN' });
    expect((await screen.findByTestId('template-electric-demo')).textContent).toBe('试用演示');
  });

  it('takes its industry tabs from the templates the server lists', async () => {
    const retail = { ...template('coupon', 'decision', ['order']), id: 'inventory', industry: 'retail', industryName: { 'zh-CN': '零售', 'en-US': 'Retail' } };
    const host = setup({ list: { code: 0, data: [...TEMPLATES, retail] } });
    expect(await screen.findByRole('tab', { name: 'Retail' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All industries', 'Electric', 'Coupon', 'Retail']);
    fireEvent.click(screen.getByRole('tab', { name: 'Retail' }));
    expect(host.navigations.at(-1)?.pathname).toBe('/template-center/industry/retail');
  });

  it('filters by industry from the route, and the tabs navigate', async () => {
    const host = setup({ pathname: '/template-center/industry/coupon' });
    expect(await screen.findByText('coupon template')).toBeTruthy();
    expect(screen.queryByText('electric template')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Electric' }));
    expect(host.navigations.at(-1)?.pathname).toBe('/template-center/industry/electric');
  });

  it('says an industry of the address is unknown, in both languages, with no tab of its own, and offers all industries', async () => {
    const host = setup({ pathname: '/template-center/industry/nonexistent' });
    expect((await screen.findByTestId('templates-unknown-industry')).textContent).toContain('There is no industry “nonexistent”');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All industries', 'Electric', 'Coupon']);
    expect(screen.queryByTestId('templates-empty')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show all industries' }));
    expect(host.navigations.at(-1)?.pathname).toBe('/template-center');
    cleanup();
    setup({ pathname: '/template-center/industry/nonexistent', locale: 'zh-CN' });
    expect((await screen.findByTestId('templates-unknown-industry')).textContent).toContain('不存在行业“nonexistent”');
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
    expect(screen.getByRole('tab', { name: '电力' })).toBeTruthy();
    expect(screen.getByTestId('template-electric-results').textContent).toContain('历史控制器');
    expect(screen.getByTestId('template-coupon-results').textContent).toMatch(/^未测量/);
  });
});
