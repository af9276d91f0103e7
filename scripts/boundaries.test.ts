import { describe, expect, it } from 'vitest';
import { checkImport } from './boundaries.mjs';

const check = checkImport;

describe('dependency direction', () => {
  it('lets plugins use the SDK and the domain only', () => {
    expect(check('plugins/projects/index.ts', '@decisio/sdk-plugin')).toBeNull();
    expect(check('plugins/projects/api.ts', '@decisio/domain')).toBeNull();
    expect(check('plugins/projects/index.ts', '@decisio/plugin-account')).toMatch(/another plugin/);
    expect(check('plugins/projects/index.ts', '../account/index')).toMatch(/another plugin/);
    expect(check('plugins/projects/index.ts', '../../core/workbench/src/host')).toMatch(/workbench/);
    expect(check('plugins/projects/index.ts', '@decisio/compute')).toMatch(/only/);
  });
  it('keeps the core layers pointing one way', () => {
    expect(check('core/learning/src/venv/bc.ts', '@decisio/compute')).toBeNull();
    expect(check('core/compute/src/tensor.ts', '@decisio/learning')).toMatch(/must not depend/);
    expect(check('core/domain/src/index.ts', '@decisio/server')).toMatch(/must not depend/);
    expect(check('sdk-plugin/src/index.ts', '@decisio/workbench')).toMatch(/must not depend/);
    expect(check('server/src/app.ts', '@decisio/learning')).toBeNull();
    expect(check('server/src/app.ts', '@decisio/workbench')).toMatch(/must not depend/);
  });
  it('allows only the composition root to list plugin manifests', () => {
    expect(check('core/workbench/src/main.tsx', '@decisio/plugin-account')).toBeNull();
    expect(check('core/workbench/src/host/registry.ts', '@decisio/plugin-account')).toMatch(/main.tsx/);
    expect(check('core/workbench/src/main.tsx', '@decisio/plugin-account/panels/SignIn')).toMatch(/main.tsx/);
  });
});
