import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Locale } from '@decisio/domain';
import { compareLocaleBundles } from './locales';
import { useProjectEditRight } from './index';
import { localeServiceRef } from './services';
import { createTestHost, withHost, type TestHost } from './testing';
import zhCN from './i18n/zh-CN.json';
import enUS from './i18n/en-US.json';

const project = (over: Record<string, unknown>) => ({
  projectId: 'p1', name: 'P', colour: 'blue', industryTemplate: null, info: null, imageVersion: null, locked: false,
  favourite: false, ownerId: 'u1', ownerName: 'Owner', right: 'owner', solutionCount: 0, createdAt: '', updatedAt: '', ...over,
});

function setup(over: Record<string, unknown> | 'network', locale: Locale = 'en-US') {
  const host = createTestHost({ locale });
  host.mockCall('project/getProject', over === 'network' ? 'network' : { data: project(over) });
  const wrapper = ({ children }: { children: ReactNode }) => withHost(host, <>{children}</>);
  return { host, ...renderHook(({ id }: { id: string | undefined }) => useProjectEditRight(id), { wrapper, initialProps: { id: 'p1' as string | undefined } }) };
}

const done = async (result: { current: { loading: boolean } }) => waitFor(() => expect(result.current.loading).toBe(false));

describe('useProjectEditRight', () => {
  afterEach(() => cleanup());

  it('refuses a view collaborator with a translated reason, in the language chosen', async () => {
    const { result, host } = setup({ right: 'view' });
    await done(result);
    expect(result.current).toEqual({ canEdit: false, reason: enUS.projectRight.viewOnly, loading: false });
    expect(host.calls.find((c) => c.url === 'project/getProject')?.body).toEqual({ projectId: 'p1' });
    await act(async () => host.services.get(localeServiceRef).setLocale('zh-CN'));
    expect(result.current.reason).toBe(zhCN.projectRight.viewOnly);
    expect(result.current.reason).toMatch(/只能查看/);
  });

  it('lets the owner and an edit collaborator change the project', async () => {
    for (const right of ['owner', 'edit']) {
      const { result } = setup({ right });
      await done(result);
      expect(result.current).toEqual({ canEdit: true, reason: undefined, loading: false });
      cleanup();
    }
  });

  it('refuses anyone on a locked project, saying it is locked', async () => {
    const { result } = setup({ right: 'owner', locked: true }, 'zh-CN');
    await done(result);
    expect(result.current).toEqual({ canEdit: false, reason: zhCN.projectRight.locked, loading: false });
  });

  it('offers nothing while the project is read or without a project; leaves the actions when it cannot be read', async () => {
    const { result, rerender } = setup({ right: 'edit' });
    expect(result.current).toEqual({ canEdit: false, reason: undefined, loading: true });
    rerender({ id: undefined });
    expect(result.current).toEqual({ canEdit: false, reason: undefined, loading: false });
    cleanup();
    const failed = setup('network');
    await done(failed.result);
    expect(failed.result.current.canEdit).toBe(true);
  });

  it('has the same texts in both languages', () => {
    expect(compareLocaleBundles(zhCN, enUS)).toEqual([]);
  });
});
