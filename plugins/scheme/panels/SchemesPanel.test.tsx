import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { schemePlugin } from '../index';

const SOLUTION = 'a'.repeat(32);
const panel = schemePlugin.panels.find((p) => p.id === 'scheme.list')!;

describe('scheme.list', () => {
  afterEach(() => cleanup());

  it('shows its empty state in both languages, asking the list of the solution', async () => {
    for (const [locale, title] of [['en-US', 'No schemes yet'], ['zh-CN', '还没有方案']] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, schemePlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/scheme', search: { projectId: 'p'.repeat(32), solutionId: SOLUTION } } });
      h.mockCall('scheme/list', { data: { rows: [], total: 0 } });
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'scheme/list')).toBe(true);
      cleanup();
    }
  });
});
