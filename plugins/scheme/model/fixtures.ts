/** Test fixtures: the electric template's correlation table and decision graph, as the server describes them. */
import type { CorrelationTable } from '@decisio/domain';

const field = (name: string, kind: 'int' | 'float' | 'datetime' = 'float') => ({ name, table: 'Cold room history', column: name, type: kind === 'datetime' ? 'TIMESTAMP' : 'DOUBLE', kind, min: null, max: null });

/** The electric template's table (20 rooms x 200 steps of 15 minutes). */
export const TEMPLATE_TABLE: CorrelationTable = {
  primary: 'Cold room history',
  rows: 4000,
  fields: [field('room', 'int'), field('step', 'int'), field('time', 'datetime'), field('obs_temp'), field('factor_door_state'), field('power_action'), field('next_obs_temp')],
  dateRange: { field: 'time', min: '2026-01-01T00:00:00.000Z', max: '2026-01-03T01:45:00.000Z' },
};

/** The electric template's decision graph (roles and fields). */
export const TEMPLATE_GRAPH = {
  nodes: [
    { name: 'temperature', role: 'state', fields: [{ name: 'obs_temp' }] },
    { name: 'door_open', role: 'external', fields: [{ name: 'factor_door_state' }] },
    { name: 'action', role: 'agent', fields: [{ name: 'power_action' }] },
    { name: 'next_temperature', role: 'environment', fields: [{ name: 'next_obs_temp' }] },
  ],
};
