import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { workflowPlugin } from '../index';

const panel = workflowPlugin.panels.find((p) => p.id === 'workflow.workbench')!;

function host(locale: 'en-US' | 'zh-CN', search: Record<string, string>) {
  const h = createTestHost({ plugins: [workflowPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/project/workbench', search } });
  h.mockCall('solution/get', { data: { solutionId: 'S1', projectId: 'P1', name: 'Fridge', goalType: 'policy_search', dataType: 'data_driven' } });
  h.mockCall('solution/getTableCorrelation', { data: { solutionId: 'S1', correlation: { primaryTableId: 'T1' } } });
  h.mockCall('solution/getPattern', { data: { solutionId: 'S1', graph: null, files: [], updatedAt: null } });
  h.mockCall('scheme/list', { data: { rows: [], total: 0 } });
  h.mockCall('trainSimulator/list', { data: { rows: [], total: 0 } });
  h.mockCall('objective/list', { data: { rows: [], total: 0 } });
  h.mockCall('trainPolicy/list', { data: { rows: [], total: 0 } });
  return h;
}

describe('ProjectWorkbenchPanel', () => {
  afterEach(() => cleanup());

  it('shows the steps with their states and opens the next one with the link parameters', async () => {
    const h = host('en-US', { projectId: 'P1', solutionId: 'S1', other: 'x' });
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('Fridge: modelling steps')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('workflow-step-dataAccess').getAttribute('data-state')).toBe('done'));
    expect(screen.getByTestId('workflow-step-pattern').getAttribute('data-state')).toBe('todo');
    expect(screen.getByTestId('workflow-step-pattern').className).toContain('is-current');
    expect(screen.queryByTestId('workflow-step-parameter')).toBeNull();
    fireEvent.click(screen.getByTestId('workflow-open-pattern'));
    expect(h.location()).toEqual({ pathname: '/workflow/pattern', search: { projectId: 'P1', solutionId: 'S1' } });
  });

  it('opens the areas after training (deductions, deploy, reports, business decision, policy update, hyperparameters) with the link', async () => {
    const h = host('zh-CN', { projectId: 'P1', solutionId: 'S1' });
    await renderPanel(panel, { host: h });
    const areas = await screen.findByTestId('workflow-areas');
    expect(areas.textContent).toContain('训练之后');
    const expected = {
      simulation: '/workflow/simulator/simulation',
      decision: '/workflow/policy/decision',
      deploy: '/project/deploy',
      report: '/project/report',
      business: '/project/business-decision',
      update: '/project/update-policy',
      hyper: '/hyperparameter',
      projectLog: '/project/project-log',
    };
    for (const [id, pathname] of Object.entries(expected)) {
      fireEvent.click(screen.getByTestId(`workflow-area-${id}`));
      expect(h.location()).toEqual({ pathname, search: { projectId: 'P1', solutionId: 'S1' } });
    }
    expect(screen.getByTestId('workflow-area-deploy').textContent).toBe('部署');
  });

  it('asks for a solution when there is none', async () => {
    const h = host('en-US', { guide: 'false' });
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('No solution chosen')).toBeTruthy();
  });

  it('sends /workflow on to the data-access step with the project link', async () => {
    const redirect = workflowPlugin.routes.find((r) => r.path === '/workflow')!;
    const h2 = createTestHost({ plugins: [workflowPlugin], locale: 'en-US', location: { pathname: '/workflow', search: { projectId: 'P1', solutionId: 'S1', guide: '1' } } });
    await renderPanel(redirect, { host: h2 });
    await waitFor(() => expect(h2.location()).toEqual({ pathname: '/workflow/table-correlation', search: { guide: '1', projectId: 'P1', solutionId: 'S1' } }));
  });
});
