import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { NumericInput } from './numeric-input';
import { localeServiceRef } from './services';
import { createTestHost, withHost } from './testing';

describe('NumericInput', () => {
  afterEach(() => cleanup());

  it('names its stepper buttons in the page\'s language (Blueprint says increment/decrement in English), and again after a change', async () => {
    const host = createTestHost({ locale: 'zh-CN' });
    // The workbench's texts (its bundle, which the SDK may not import).
    host.i18n.addResourceBundle('zh-CN', 'workbench', { numericInput: { increment: '增加', decrement: '减少' } }, true, true);
    host.i18n.addResourceBundle('en-US', 'workbench', { numericInput: { increment: 'Increase', decrement: 'Decrease' } }, true, true);
    const ref = createRef<HTMLInputElement>();
    render(withHost(host, <NumericInput id="n" value={3} min={1} max={9} onValueChange={() => undefined} inputRef={ref} />));
    expect(screen.getByRole('button', { name: '增加' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '减少' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'increment' })).toBeNull();
    expect(ref.current?.id).toBe('n');
    await act(async () => host.services.get(localeServiceRef).setLocale('en-US'));
    expect(screen.getByRole('button', { name: 'Increase' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decrease' })).toBeTruthy();
  });
});
