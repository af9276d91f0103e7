import { describe, expect, it } from 'vitest';
import type { TemplateMatch } from '@decisio/domain';
import { draftOf, mappingIssues, mappingRequest } from './mapping';

const score = { name: 1, type: 1, range: 1, total: 1 };
const match: TemplateMatch = {
  templateId: 'electric',
  name: { 'zh-CN': '冷库', 'en-US': 'Cold room' },
  score: 80,
  complete: false,
  missing: ['time'],
  mapping: [
    { field: 'room', role: 'trajectory', required: true, column: 'room_id', score },
    { field: 'time', role: 'datetime', required: true, column: null, score: null },
    { field: 'obs_temp', role: 'field', required: true, column: 'temperature', score },
    { field: 'next_obs_temp', role: 'field', required: false, column: null, score: null },
  ],
};

describe('the mapping draft', () => {
  it('starts from the proposal and flags required fields without a column', () => {
    const draft = draftOf(match);
    expect(draft).toEqual({ room: 'room_id', time: '', obs_temp: 'temperature', next_obs_temp: '' });
    expect(mappingIssues(match, draft)).toEqual({ time: 'required' });
  });

  it('flags a column chosen for two fields, and leaves optional empty fields out of the request', () => {
    const draft = { ...draftOf(match), time: 'stamp', next_obs_temp: 'temperature' };
    expect(mappingIssues(match, draft)).toEqual({ obs_temp: 'duplicate', next_obs_temp: 'duplicate' });
    const fixed = { ...draft, next_obs_temp: '' };
    expect(mappingIssues(match, fixed)).toEqual({});
    expect(mappingRequest(match, fixed)).toEqual([
      { field: 'room', column: 'room_id' },
      { field: 'time', column: 'stamp' },
      { field: 'obs_temp', column: 'temperature' },
    ]);
  });
});
