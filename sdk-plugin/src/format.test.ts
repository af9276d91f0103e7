import { describe, expect, it } from 'vitest';
import { failureMessage, formatBytes } from './format';

describe('format helpers', () => {
  it('shows sizes in 1024 steps up to TB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.50 KB');
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MB');
    expect(formatBytes(12.5 * 1024 ** 3)).toBe('12.5 GB');
    expect(formatBytes(3 * 1024 ** 5)).toBe('3072 TB');
  });

  it('gives the message of a failure unless the workbench showed it', () => {
    expect(failureMessage(new Error('boom'), 'fallback')).toBe('boom');
    expect(failureMessage('odd', 'fallback')).toBe('fallback');
    expect(failureMessage({ kind: 'api', code: 1001, message: 'Refused', handled: true }, 'fallback')).toBeNull();
    expect(failureMessage({ kind: 'api', code: 1001, message: 'Refused', handled: false }, 'fallback')).toBe('Refused');
    expect(failureMessage({ kind: 'api', code: 1001, message: '', handled: false }, 'fallback')).toBe('fallback');
  });
});
