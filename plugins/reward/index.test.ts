import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { rewardPlugin } from './index';

describe('reward manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(rewardPlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/workflow/objective': ['reward.list'] });
    const panels = new Set<string>(rewardPlugin.panels.map((p) => p.id));
    for (const r of rewardPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, rewardPlugin], locale });
      for (const p of rewardPlugin.panels) {
        const title = h.i18n.t(`reward:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });
});
