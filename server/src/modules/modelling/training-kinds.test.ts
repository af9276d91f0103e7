import { describe, expect, it } from 'vitest';
import { decisionDeduction, simulationDeduction } from './areas/deduction';
import { environmentTraining } from './areas/environment';
import { policyTraining } from './areas/policy';
import { tuningTraining } from './areas/tuning';
import { modellingTrainingKinds } from './areas';
import { TrainingKinds } from './training-kinds';

describe('training kinds', () => {
  it('holds one descriptor per kind and area, registered explicitly', () => {
    const kinds = modellingTrainingKinds();
    expect(kinds.all().map((d) => [d.kind, d.area, d.table, d.jobKind])).toEqual([
      ['environment', 'trainSimulator', 'simulators', 'modelling.trainSimulator'],
      ['policy', 'trainPolicy', 'policies', 'modelling.trainPolicy'],
      ['parameter', 'trainParameter', 'parameter_searches', 'modelling.trainParameter'],
      ['simulation', 'simulation', 'deductions', 'modelling.simulation'],
      ['decision', 'decision', 'deductions', 'modelling.decision'],
    ]);
    expect(kinds.area('trainPolicy')).toBe(policyTraining);
    expect(kinds.kind('decision')).toBe(decisionDeduction);
    expect(kinds.all().filter((d) => d.modelArea).map((d) => d.modelArea)).toEqual(['simulator', 'policy']);
    expect(kinds.all().map((d) => [d, d.job({} as never).kind]).every(([d, k]) => (d as typeof policyTraining).jobKind === k)).toBe(true);
    expect([environmentTraining, policyTraining, tuningTraining, simulationDeduction, decisionDeduction].every((d) => kinds.kind(d.kind) === d)).toBe(true);
    // Nothing is registered by importing a descriptor.
    expect(new TrainingKinds().all()).toEqual([]);
  });

  it('refuses an area, a kind or a model area registered twice', () => {
    const kinds = new TrainingKinds().register(environmentTraining);
    expect(() => kinds.register(environmentTraining)).toThrow(/registered twice/);
    expect(() => kinds.register({ ...policyTraining, kind: 'environment' })).toThrow(/kind "environment"/);
    expect(() => kinds.register({ ...policyTraining, modelArea: 'simulator' })).toThrow(/Model area "simulator"/);
    expect(() => kinds.register({ ...policyTraining, jobKind: environmentTraining.jobKind })).toThrow(/Job kind "modelling.trainSimulator"/);
    expect(kinds.all()).toHaveLength(1);
  });
});
