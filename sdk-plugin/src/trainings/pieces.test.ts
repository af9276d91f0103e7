import { describe, expect, it } from 'vitest';
import { validateDeduction } from './DeductionDialog';
import { formatDuration } from './shared';

describe('deduction form', () => {
  const d = { kind: 'simulation' as const, name: 'sd', simulatorId: 'e', policyId: '', objectiveId: '', stepSize: '10000', workerId: '' };
  it('keeps the step size in 1..10000 and needs a policy for a decision', () => {
    expect(validateDeduction(d)).toEqual({});
    expect(validateDeduction({ ...d, stepSize: '10001' }).stepSize).toBe('errors.stepRange');
    expect(validateDeduction({ ...d, stepSize: '0' }).stepSize).toBe('errors.stepRange');
    expect(validateDeduction({ ...d, kind: 'decision' }).policyId).toBe('errors.required');
  });
  it('formats durations', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(90_061_000)).toBe('1d 1h 1m');
  });
});
