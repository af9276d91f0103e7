import { describe, expect, it } from 'vitest';
import { algorithmHyperparameters } from '@decisio/domain';
import { formParams, formRows, parseParamsJson, readValue } from './hyper-form';

const BC = algorithmHyperparameters('environment', 'bc');
const spec = (name: string) => BC.find((s) => s.name === name)!;

describe('hyperparameter set form', () => {
  it('reads typed text as the hyperparameter takes it, leaving what does not read as text for the check', () => {
    expect(readValue(spec('lr'), ' 0.001 ')).toBe(0.001);
    expect(readValue(spec('lr'), 'fast')).toBe('fast');
    expect(readValue(spec('hidden'), '64, 64')).toEqual([64, 64]);
    expect(readValue(spec('hidden'), '64 x')).toEqual([64, 'x']);
  });

  it('round-trips a stored set through the rows, keeping names the algorithm does not take', () => {
    const stored = [
      { name: 'lr', type: 'float', default: 0.001, searchMode: 'continuous', searchValues: [0.0001, 0.01] },
      { name: 'hidden', type: 'list', default: [32, 32], searchMode: 'grid', searchValues: [[16], [64, 64]] },
      { name: 'dropout', default: 0.1 },
    ];
    const { rows, extra } = formRows(BC, stored);
    expect(rows.lr).toEqual({ default: '0.001', searchMode: 'continuous', values: '', min: '0.0001', max: '0.01' });
    expect(rows.hidden!.values).toBe('16; 64, 64');
    expect(extra).toEqual([{ name: 'dropout', default: 0.1 }]);
    expect(formParams(BC, rows, extra)).toEqual([stored[1], stored[0], stored[2]]);
  });

  it('reads raw JSON with the params schema', () => {
    expect(parseParamsJson('[{"name": "lr", "default": 0.1}]')).toEqual({ params: [{ name: 'lr', default: 0.1 }] });
    expect(parseParamsJson('{"lr": 0.1}')).toEqual({ error: 'shape' });
    expect(parseParamsJson('[{"default": 1}]')).toEqual({ error: 'shape' });
    expect(parseParamsJson('[')).toMatchObject({ error: 'json' });
  });
});
