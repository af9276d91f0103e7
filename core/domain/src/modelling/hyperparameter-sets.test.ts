import { describe, expect, it } from 'vitest';
import { algorithmHyperparameters, hyperparameterSetIssueMessage, hyperparameterSetIssues } from './hyperparameter-sets';

describe('hyperparameter sets', () => {
  it('describes each algorithm from its training schema', () => {
    const bc = algorithmHyperparameters('environment', 'bc');
    expect(bc.map((s) => s.name)).toContain('ensemble');
    expect(bc.map((s) => s.name)).not.toContain('generatorLr');
    expect(bc.find((s) => s.name === 'ensemble')).toMatchObject({ input: 'int', min: 1, max: 10, searchable: false });
    expect(bc.find((s) => s.name === 'lr')).toMatchObject({ input: 'float', min: 0, exclusiveMin: true, searchable: true });
    expect(bc.find((s) => s.name === 'hidden')).toMatchObject({ input: 'intList', min: 1, max: 4096, minItems: 1, maxItems: 8 });
    expect(algorithmHyperparameters('environment', 'revive_p').map((s) => s.name)).toContain('generatorLr');
    expect(algorithmHyperparameters('policy', 'ppo').find((s) => s.name === 'select')).toMatchObject({ input: 'choice', options: ['venv', 'mean', 'worst'] });
    expect(algorithmHyperparameters('policy', 'sac').map((s) => s.name)).not.toContain('uncertaintyRelative');
    expect(algorithmHyperparameters('parameter', 'sracos').map((s) => s.name)).toEqual(['seed', 'trials', 'horizon']);
    expect(algorithmHyperparameters('policy', 'bc')).toEqual([]);
  });

  it('accepts a valid set', () => {
    expect(
      hyperparameterSetIssues('environment', 'bc', [
        { name: 'lr', type: 'float', default: 0.001, searchMode: 'continuous', searchValues: [1e-4, 1e-2] },
        { name: 'hidden', default: [16], searchMode: 'grid', searchValues: [[8], [24]] },
        { name: 'epochs', default: 2, searchMode: 'fixed' },
        { name: 'ensemble' },
      ]),
    ).toEqual([]);
  });

  it('names every place that breaks the schema, in both languages', () => {
    const issues = hyperparameterSetIssues('environment', 'bc', [
      { name: 'lr', default: 0 },
      { name: 'learningRate', default: 1 },
      { name: 'lr', default: 0.1 },
      { name: 'epochs', default: 1.5 },
      { name: 'ensemble', searchMode: 'grid', searchValues: [1, 2] },
      { name: 'batchSize', searchMode: 'continuous', searchValues: [256, 64] },
      { name: 'hidden', searchMode: 'choice', searchValues: [[0]] },
      { name: 'generatorLr', default: 0.1 },
      { name: 'updatesPerStep', searchMode: 'sometimes' },
    ]);
    expect(issues.map((i) => [i.path, i.rule])).toEqual([
      ['params.0.default', 'value'],
      ['params.1.name', 'unknown'],
      ['params.2.name', 'duplicate'],
      ['params.3.default', 'value'],
      ['params.4.searchMode', 'notSearchable'],
      ['params.5.searchValues', 'searchRange'],
      ['params.6.searchValues', 'searchValues'],
      ['params.7.name', 'notForAlgorithm'],
      ['params.8.searchMode', 'searchMode'],
    ]);
    expect(hyperparameterSetIssueMessage(issues[0]!, 'en-US')).toBe('lr: a number, above 0');
    expect(hyperparameterSetIssueMessage(issues[0]!, 'zh-CN')).toBe('lr：数值，大于 0');
    expect(hyperparameterSetIssueMessage(issues[1]!, 'en-US')).toBe('"learningRate" is not a hyperparameter of this algorithm');
    expect(hyperparameterSetIssueMessage(issues[3]!, 'en-US')).toBe('epochs: a whole number, at least 1');
  });

  it('applies the cross rules of the schema and of the algorithm', () => {
    expect(hyperparameterSetIssues('policy', 'ppo', [{ name: 'select', default: 'venv' }, { name: 'bcUncertainty', default: 1 }]).map((i) => [i.path, i.rule])).toEqual([['params.1.default', 'notForAlgorithm']]);
    expect(hyperparameterSetIssues('environment', 'revive_t', [{ name: 'seed', default: 1 }]).length).toBe(0);
    expect(hyperparameterSetIssues('environment', 'ppo', [])).toEqual([{ path: 'algorithm', rule: 'algorithm' }]);
  });
});
