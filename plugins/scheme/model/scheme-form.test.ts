import { describe, expect, it } from 'vitest';
import { TEMPLATE_GRAPH as GRAPH, TEMPLATE_TABLE } from './fixtures';
import { rangeMissesData, schemeData, schemeForm, validateSchemeForm } from './scheme-form';

describe('scheme form', () => {
  it('starts a new scheme from the data: its fields, its whole date range, the graph\'s fields as dimensions', () => {
    const f = schemeForm(null, TEMPLATE_TABLE, GRAPH);
    expect(f.fields.map((x) => x.name)).toEqual(TEMPLATE_TABLE.fields.map((x) => x.name));
    expect([f.startTime, f.endTime, f.period]).toEqual(['2026-01-01', '2026-01-03', 'day']);
    expect(schemeData({ ...f, name: 'n' })).toEqual({
      dimensions: { agent: ['power_action'], otherAgents: [], environment: ['obs_temp', 'factor_door_state', 'next_obs_temp'] },
      types: {},
      aggregation: {},
      filter: '',
      partialOrder: [],
    });
  });

  it('reads a stored scheme back (text or object types, function aliases, derived fields) and writes what the processing reads', () => {
    const stored = {
      name: 'old',
      period: 'week',
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-01-02T00:00:00.000Z',
      data: {
        dimensions: { agent: 'power_action', environment: ['obs_temp', 'heat'], otherAgents: ['gone'] },
        types: { obs_temp: 'continuous [0, 40]', power_action: { type: 'discrete', values: [0, 0.5, 1] } },
        aggregation: { obs_temp: 'mean', heat: 'obs_temp * `power action`' },
        filter: 'obs_temp > 0',
        partialOrder: ['0 <= power_action <= 1'],
      },
    };
    const f = schemeForm(stored, TEMPLATE_TABLE, GRAPH);
    expect(f.fields.find((x) => x.name === 'gone')).toMatchObject({ missing: true, choice: { dimension: 'otherAgents' } });
    expect(f.derived).toEqual([{ name: 'heat', left: 'obs_temp', op: '*', right: 'power action', dimension: 'environment' }]);
    expect(f.fields.find((x) => x.name === 'obs_temp')!.choice).toMatchObject({ type: 'continuous', min: '0', max: '40', aggregation: 'average', dimension: 'environment' });
    expect(validateSchemeForm(f)).toEqual({});
    expect(schemeData(f)).toEqual({
      dimensions: { agent: ['power_action'], otherAgents: ['gone'], environment: ['obs_temp', 'heat'] },
      types: { obs_temp: { type: 'continuous', min: 0, max: 40 }, power_action: { type: 'discrete', values: [0, 0.5, 1] } },
      aggregation: { heat: 'obs_temp * `power action`', obs_temp: 'average' },
      filter: 'obs_temp > 0',
      partialOrder: ['0 <= power_action <= 1'],
    });
  });

  it('checks names, period, dates, ranges, values and derived fields', () => {
    const f = schemeForm(null, TEMPLATE_TABLE, null);
    f.endTime = '2025-12-31';
    f.period = '';
    f.fields[3]!.choice = { ...f.fields[3]!.choice, type: 'continuous', min: '5', max: '1', aggregation: 'sum' };
    f.fields[4]!.choice = { ...f.fields[4]!.choice, type: 'discrete', values: '0, x' };
    f.derived = [{ name: 'room', left: 'obs_temp', op: '+', right: 'step', dimension: '' }, { name: 'lift', left: '', op: '*', right: 'step', dimension: '' }];
    expect(validateSchemeForm(f)).toEqual({
      name: 'errors.required',
      endTime: 'scheme.timeOrder',
      'field.obs_temp': 'scheme.errors.range',
      'field.factor_door_state': 'scheme.errors.values',
      'derived.0': 'scheme.errors.derivedTaken',
      'derived.1': 'scheme.errors.derivedIncomplete',
      period: 'errors.required',
    });
  });

  it('tells when the chosen range holds none of the data', () => {
    expect(rangeMissesData({ startTime: '2026-01-03', endTime: '2026-01-09' }, TEMPLATE_TABLE)).toBe(false);
    expect(rangeMissesData({ startTime: '2026-01-04', endTime: '2026-01-09' }, TEMPLATE_TABLE)).toBe(true);
    expect(rangeMissesData({ startTime: '2025-12-01', endTime: '2025-12-31' }, TEMPLATE_TABLE)).toBe(true);
    expect(rangeMissesData({ startTime: '2025-12-01', endTime: '2025-12-31' }, null)).toBe(false);
  });
});
