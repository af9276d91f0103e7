import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { hyperparametersPlugin } from '../index';

const SOLUTION = 'a'.repeat(32);
const panel = hyperparametersPlugin.panels.find((p) => p.id === 'hyperparameters.sets')!;

describe('hyperparameters.sets', () => {
  afterEach(() => cleanup());

  it('shows its empty state in both languages, asking the list of the solution', async () => {
    for (const [locale, title] of [['en-US', 'No hyperparameter sets yet'], ['zh-CN', '还没有超参数集']] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, hyperparametersPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/scheme', search: { projectId: 'p'.repeat(32), solutionId: SOLUTION } } });
      h.mockCall('hyperparameter/list', { data: { rows: [], total: 0 } });
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'hyperparameter/list')).toBe(true);
      cleanup();
    }
  });
});
