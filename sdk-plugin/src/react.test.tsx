import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { useOpeningKey } from './react';

describe('useOpeningKey', () => {
  afterEach(() => cleanup());

  it('changes when a record opens (another one, or the same one again) and stays while it closes', () => {
    const { result, rerender } = renderHook(({ id }: { id: string | null }) => useOpeningKey(id), { initialProps: { id: null as string | null } });
    const closed = result.current;
    rerender({ id: 'a' });
    const a = result.current;
    expect(a).not.toBe(closed);
    rerender({ id: 'a' });
    expect(result.current).toBe(a);
    // Closing keeps the key: the same dialog fades out.
    rerender({ id: null });
    expect(result.current).toBe(a);
    // The same record again: a fresh dialog.
    rerender({ id: 'a' });
    const again = result.current;
    expect(again).not.toBe(a);
    // Another record straight away: a fresh dialog too.
    rerender({ id: 'b' });
    expect(result.current).not.toBe(again);
  });
});
