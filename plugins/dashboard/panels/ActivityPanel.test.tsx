import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderPanel } from '@decisio/sdk-plugin/testing';
import { dashboardPlugin } from '../index';

describe('ActivityPanel', () => {
  afterEach(() => cleanup());

  it('shows the empty state in both languages', async () => {
    const panel = dashboardPlugin.panels.find((p) => p.id === 'dashboard.activity')!;
    await renderPanel(panel, { plugins: [dashboardPlugin], locale: 'en-US' });
    expect(screen.getByText('No recent activity')).toBeTruthy();
    cleanup();
    await renderPanel(panel, { plugins: [dashboardPlugin], locale: 'zh-CN' });
    expect(screen.getByText('暂无动态')).toBeTruthy();
  });
});
