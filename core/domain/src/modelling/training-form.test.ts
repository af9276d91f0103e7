/**
 * The training form of the trainings kit (`training.ts`): its checks, the create body it sends,
 * and that body against the create schemas the server parses it with (one definition of
 * form → request: a form the checks pass is a request the server's schema accepts).
 */
import { describe, expect, it } from 'vitest';
import { emptyTrainForm, isGitUrl, toTrainRequest, trainFormField, trainFormMessage, validateTrainForm, type TrainForm } from './training';
import { trainParameterSchema, trainPolicySchema, trainSimulatorSchema } from './schemas';

const env = (patch: Partial<TrainForm> = {}): TrainForm => ({ ...emptyTrainForm('environment'), name: 'env-1', schemeId: 's'.repeat(32), ...patch });
const policy = (patch: Partial<TrainForm> = {}): TrainForm => ({ ...emptyTrainForm('policy'), name: 'p-1', simulatorId: 'e'.repeat(32), objectiveId: 'o'.repeat(32), ...patch });

describe('environment training form', () => {
  it('accepts a complete form and builds the create body', () => {
    expect(validateTrainForm(env())).toEqual({});
    expect(toTrainRequest(env({ debug: true, workerId: 'w1' }), 'x'.repeat(32))).toMatchObject({ name: 'env-1', algorithm: 'bc', schemeId: 's'.repeat(32), stopConditions: { system: true }, mode: 'debug', workerId: 'w1' });
  });
  it('requires a name and a scheme', () => {
    expect(validateTrainForm(env({ name: ' ', schemeId: '' }))).toMatchObject({ name: 'errors.required', schemeId: 'errors.required' });
    expect(validateTrainForm(env({ name: 'x'.repeat(51) })).name).toBe('errors.nameTooLong');
  });
  it('needs at least one stop condition', () => {
    const stop = { ...emptyTrainForm('environment').stop, system: false };
    expect(validateTrainForm(env({ stop })).stop).toBe('errors.noStopCondition');
  });
  it('checks the duration: whole numbers, above 0, at most 7 days', () => {
    const base = { ...emptyTrainForm('environment').stop, system: false, durationOn: true };
    expect(validateTrainForm(env({ stop: { ...base, days: '7', hours: '0', minutes: '0' } }))).toEqual({});
    expect(validateTrainForm(env({ stop: { ...base, days: '7', hours: '0', minutes: '1' } })).duration).toBe('errors.durationInvalid');
    expect(validateTrainForm(env({ stop: { ...base, days: '0', hours: '0', minutes: '0' } })).duration).toBe('errors.durationInvalid');
    expect(validateTrainForm(env({ stop: { ...base, days: '0', hours: '1.5', minutes: '0' } })).duration).toBe('errors.durationInvalid');
  });
  it('keeps the expected score in (0, 99]', () => {
    const base = { ...emptyTrainForm('environment').stop, system: false, expectedOn: true };
    expect(validateTrainForm(env({ stop: { ...base, expected: '99' } }))).toEqual({});
    expect(toTrainRequest(env({ stop: { ...base, expected: '80' } }), 'x').stopConditions).toEqual({ expectedScore: 80 });
    for (const v of ['0', '99.5', '-1', 'abc', '']) expect(validateTrainForm(env({ stop: { ...base, expected: v } })).expected).toBe('errors.expectedRange');
  });
  it('needs 3 trials for a zoopt auto search', () => {
    expect(validateTrainForm(env({ autoSearch: true, searchAlgorithm: 'zoopt', trials: '2' })).trials).toBe('errors.zooptTrials');
    expect(validateTrainForm(env({ autoSearch: true, searchAlgorithm: 'zoopt', trials: '3' }))).toEqual({});
    expect(validateTrainForm(env({ autoSearch: true, searchAlgorithm: 'random', trials: '0' })).trials).toBe('errors.positiveInt');
  });
  it('needs a valid git URL and a commit when git is on', () => {
    expect(validateTrainForm(env({ gitOn: true }))).toMatchObject({ gitUrl: 'errors.required', gitCommit: 'errors.required' });
    expect(validateTrainForm(env({ gitOn: true, gitUrl: 'not a url', gitCommit: 'main' })).gitUrl).toBe('errors.gitUrl');
    expect(validateTrainForm(env({ gitOn: true, gitUrl: 'https://git.example.com/team/repo.git', gitCommit: 'main' }))).toEqual({});
    // The domain's one rule: what the checkout clones (http, https, git), not ssh or scp-like addresses.
    expect(isGitUrl('git://example.com/team/repo.git')).toBe(true);
    expect(isGitUrl('git@example.com:team/repo.git')).toBe(false);
    expect(isGitUrl('file:///etc')).toBe(false);
  });
  it('rejects hyperparameters that are not a JSON object', () => {
    expect(validateTrainForm(env({ hyperparameters: '[1]' })).hyperparameters).toBe('errors.hyperJson');
    expect(validateTrainForm(env({ hyperparameters: '{"epochs": 5' })).hyperparameters).toBe('errors.hyperJson');
    expect(toTrainRequest(env({ hyperparameters: '{"epochs": 5}' }), 'x').hyperparameters).toEqual({ epochs: 5 });
    // The kind's schema of core/domain: an unknown name or a value out of range, as the server refuses it.
    // the setting is named before the translated text
    expect(validateTrainForm(env({ hyperparameters: '{"epoch": 5}' })).hyperparameters).toBe('epoch: errors.hyperInvalid');
    expect(validateTrainForm(env({ hyperparameters: '{"hidden": [0]}' })).hyperparameters).toBe('hidden: errors.hyperInvalid');
  });
});

describe('policy training form', () => {
  it('requires an environment and a reward, PPO or SAC', () => {
    expect(validateTrainForm(policy())).toEqual({});
    expect(validateTrainForm(policy({ simulatorId: '', objectiveId: '' }))).toMatchObject({ simulatorId: 'errors.required', objectiveId: 'errors.required' });
    expect(validateTrainForm(policy({ algorithm: 'bc' })).algorithm).toBe('errors.required');
    expect(toTrainRequest(policy({ algorithm: 'sac' }), 'x')).toMatchObject({ algorithm: 'sac', simulatorId: 'e'.repeat(32), objectiveId: 'o'.repeat(32) });
  });
  it('names the expected value a reward', () => {
    const stop = { ...emptyTrainForm('policy').stop, system: false, expectedOn: true, expected: '50' };
    expect(toTrainRequest(policy({ stop }), 'x').stopConditions).toEqual({ expectedReward: 50 });
  });
});

describe('parameter tuning form', () => {
  const param = (patch: Partial<TrainForm> = {}) => ({ ...emptyTrainForm('parameter'), name: 'pt', simulatorId: 'e', objectiveId: 'o', searchCount: '20', ...patch });
  it('keeps search count and step in (0, 10000)', () => {
    expect(validateTrainForm(param())).toEqual({});
    expect(validateTrainForm(param({ searchCount: '10000' })).searchCount).toBe('errors.searchRange');
    expect(validateTrainForm(param({ searchStep: '0' })).searchStep).toBe('errors.searchRange');
    expect(validateTrainForm(param({ algorithm: 'zoopt', searchCount: '2' })).searchCount).toBe('errors.zooptTrials');
  });
});

describe('form → request against the create schemas', () => {
  const solution = 'a'.repeat(32);
  const ids = { schemeId: 'c'.repeat(32), simulatorId: 'e'.repeat(32), objectiveId: 'b'.repeat(32) };
  const schema = { environment: trainSimulatorSchema, policy: trainPolicySchema, parameter: trainParameterSchema } as const;
  const stop = (patch: Partial<TrainForm['stop']>) => ({ ...emptyTrainForm('environment').stop, ...patch });
  const forms: TrainForm[] = [
    { ...emptyTrainForm('environment'), name: 'env', ...ids },
    { ...emptyTrainForm('environment'), name: 'env', ...ids, algorithm: 'revive_p', debug: true, hyperparameters: '{"epochs": 3, "hidden": [32, 32]}' },
    { ...emptyTrainForm('environment'), name: 'env', ...ids, stop: stop({ system: false, durationOn: true, days: '7', hours: '0', minutes: '0', expectedOn: true, expected: '99' }) },
    { ...emptyTrainForm('environment'), name: 'env', ...ids, autoSearch: true, searchAlgorithm: 'zoopt', trials: '3', gitOn: true, gitUrl: 'https://git.example.com/t/r.git', gitCommit: 'main', gitUser: 'u' },
    { ...emptyTrainForm('policy'), name: 'p', ...ids, algorithm: 'sac', stop: stop({ expectedOn: true, expected: '50' }) },
    // the graph's default: the body names no algorithm
    { ...emptyTrainForm('policy'), name: 'p', ...ids },
    { ...emptyTrainForm('parameter'), name: 't', ...ids, searchCount: '20', searchStep: '0.5', datasetId: 'd'.repeat(32), stop: stop({ system: false }) },
  ];
  it('a form the checks pass is a body the server schema accepts', () => {
    for (const f of forms) {
      expect(validateTrainForm(f)).toEqual({});
      const parsed = schema[f.kind].safeParse(toTrainRequest(f, solution));
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
    expect(emptyTrainForm('policy').algorithm).toBe('');
    expect(toTrainRequest(forms[5]!, solution)).not.toHaveProperty('algorithm');
    expect(trainPolicySchema.parse(toTrainRequest(forms[5]!, solution)).algorithm).toBeUndefined();
    expect(validateTrainForm({ ...forms[0]!, algorithm: '' }).algorithm).toBe('errors.required');
  });
  it('what the checks refuse, the schema refuses too, under the same field', () => {
    const bad: Array<[TrainForm, string]> = [
      [{ ...forms[0]!, stop: stop({ system: false, durationOn: true, days: '7', hours: '0', minutes: '1' }) }, 'duration'],
      [{ ...forms[0]!, stop: stop({ expectedOn: true, expected: '120' }) }, 'expected'],
      [{ ...forms[0]!, hyperparameters: '{"epoch": 5}' }, 'hyperparameters'],
      [{ ...forms[0]!, name: 'x'.repeat(51) }, 'name'],
      [{ ...forms[6]!, searchCount: '10000' }, 'searchCount'],
    ];
    for (const [f, field] of bad) {
      expect(Object.keys(validateTrainForm(f))).toContain(field);
      const parsed = schema[f.kind].safeParse(toTrainRequest(f, solution));
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues.map((i) => trainFormField(i.path.join('.')))).toContain(field);
    }
  });

  it('names the hyperparameter a server error is about, under the one hyperparameters field', () => {
    expect([trainFormField('hyperparameters.selectTolerance'), trainFormMessage('hyperparameters.selectTolerance', 'Invalid value')]).toEqual(['hyperparameters', 'selectTolerance: Invalid value']);
    expect(trainFormMessage('hyperparameters', 'Invalid JSON')).toBe('Invalid JSON');
    expect(trainFormMessage('git.url', 'Not a valid git URL')).toBe('Not a valid git URL');
  });
});
