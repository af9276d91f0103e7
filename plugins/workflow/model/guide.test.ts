import { describe, expect, it } from 'vitest';
import { GUIDE_START, GUIDE_STEPS, guideScreen, guideStepIndex, nextGuideStep, showsGuide } from './guide';

describe('guide steps', () => {
  it('orders the first run from data access to deploy', () => {
    expect(GUIDE_STEPS.map((s) => s.id)).toEqual(['dataAccess', 'pattern', 'scheme', 'environment', 'reward', 'policy', 'deductions', 'deploy']);
    expect(GUIDE_START).toBe('/workflow/table-correlation');
  });

  it('finds the step of a screen, sub-screens included', () => {
    expect(guideStepIndex('/workflow/table-correlation')).toBe(0);
    expect(guideStepIndex('/workflow/pattern/')).toBe(1);
    expect(guideStepIndex('/workflow/simulator/train')).toBe(3);
    expect(guideStepIndex('/workflow/simulator/simulation')).toBe(6);
    expect(guideStepIndex('/workflow/policy/decision')).toBe(6);
    expect(guideStepIndex('/project/deploy-detail')).toBe(7);
    expect(guideStepIndex('/project/workbench')).toBe(-1);
    expect(guideStepIndex('/workflow/debug')).toBe(-1);
  });

  it('places the debug page of a training in its step (it said "start with data access" there)', () => {
    expect(guideStepIndex('/workflow/debug', { simulatorId: 'e1', guide: 'true' })).toBe(3);
    expect(guideStepIndex('/workflow/debug', { policyId: 'p1' })).toBe(5);
    expect(guideStepIndex('/workflow/debug', { solutionId: 's1' })).toBe(-1);
    expect(nextGuideStep('/workflow/debug', { simulatorId: 'e1' })?.route).toBe('/workflow/objective');
    expect(nextGuideStep('/workflow/debug', { policyId: 'p1' })?.route).toBe('/workflow/simulator/simulation');
    expect(nextGuideStep('/workflow/debug', {})?.route).toBe('/workflow/table-correlation');
    // The query parameters do not move other screens.
    expect(guideStepIndex('/workflow/pattern', { policyId: 'p1' })).toBe(1);
  });

  it('leads to the next step, the first one from outside, nowhere after the last', () => {
    expect(nextGuideStep('/workflow/table-correlation')?.route).toBe('/workflow/pattern');
    expect(nextGuideStep('/workflow/simulator/train')?.route).toBe('/workflow/objective');
    expect(nextGuideStep('/workflow/policy/train')?.route).toBe('/workflow/simulator/simulation');
    expect(nextGuideStep('/workflow/policy/decision')?.route).toBe('/project/deploy');
    expect(nextGuideStep('/project/workbench')?.route).toBe('/workflow/table-correlation');
    expect(nextGuideStep('/project/deploy')).toBeNull();
  });

  it('shows on the guide screens while guide is present and not false', () => {
    expect(guideScreen('/workflow/debug')).toBe(true);
    expect(guideScreen('/project/workbench')).toBe(true);
    expect(guideScreen('/dashboard')).toBe(false);
    expect(showsGuide({ pathname: '/workflow/pattern', search: { guide: 'true' } })).toBe(true);
    expect(showsGuide({ pathname: '/workflow/pattern', search: { guide: '' } })).toBe(true);
    expect(showsGuide({ pathname: '/workflow/pattern', search: { guide: 'false' } })).toBe(false);
    expect(showsGuide({ pathname: '/workflow/pattern', search: {} })).toBe(false);
    expect(showsGuide({ pathname: '/all-project', search: { guide: 'true' } })).toBe(false);
  });
});
