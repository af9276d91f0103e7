import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { schemePlugin } from './index';

describe('scheme manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(schemePlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/workflow/scheme': ['scheme.list'] });
    const panels = new Set<string>(schemePlugin.panels.map((p) => p.id));
    for (const r of schemePlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, schemePlugin], locale });
      for (const p of schemePlugin.panels) {
        const title = h.i18n.t(`scheme:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });
});
