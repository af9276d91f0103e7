import { describe, expect, it } from 'vitest';
import { recordsState, solutionSteps } from './steps';

describe('solution steps', () => {
  it('starts with data access for a new solution', () => {
    const steps = solutionSteps({ goalType: 'policy_search' });
    expect(steps.map((s) => s.id)).toEqual(['dataAccess', 'pattern', 'scheme', 'environment', 'reward', 'policy']);
    expect(steps.every((s) => s.state === 'todo')).toBe(true);
    expect(steps.filter((s) => s.current).map((s) => s.id)).toEqual(['dataAccess']);
    expect(steps[1]!.route).toBe('/workflow/pattern');
  });

  it('follows the records of each step, and offers parameter search for tuning solutions', () => {
    const steps = solutionSteps({
      goalType: 'parameter_tuning',
      correlation: { primaryTableId: 't' },
      graphNodes: 3,
      schemes: [{ processState: 'completed' }],
      simulators: [{ state: 'processing' }],
      objectives: [],
      parameters: [{ state: 'failure' }],
    });
    expect(Object.fromEntries(steps.map((s) => [s.id, s.state]))).toEqual({
      dataAccess: 'done',
      pattern: 'done',
      scheme: 'done',
      environment: 'running',
      reward: 'todo',
      parameter: 'failed',
    });
    expect(steps.find((s) => s.current)?.id).toBe('environment');
  });

  it('reads record states: any success is done, else running, else the newest failure', () => {
    expect(recordsState(undefined)).toBe('todo');
    expect(recordsState([{ state: 'failure' }, { state: 'successful' }])).toBe('done');
    expect(recordsState([{ state: 'failure' }, { state: 'waiting' }])).toBe('running');
    expect(recordsState([{ state: 'failure' }])).toBe('failed');
    expect(recordsState([{ processState: 'normal' }])).toBe('started');
  });
});
