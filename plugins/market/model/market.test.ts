import { describe, expect, it } from 'vitest';
import { editableProjects, figure, publishable } from './market';

describe('market helpers', () => {
  it('offers only projects the caller may edit, and only trained models', () => {
    expect(editableProjects([{ right: 'owner' }, { right: 'view' }, { right: 'edit' }] as never).map((p: { right: string }) => p.right)).toEqual(['owner', 'edit']);
    expect(publishable([{ state: 'successful' }, { state: 'failure' }, { state: 'processing' }, { state: 'successful by manual stop' }]).map((r) => r.state)).toEqual(['successful', 'successful by manual stop']);
  });

  it('writes figures the server sent, and a dash for none', () => {
    expect(figure(81.234)).toBe('81.23');
    expect(figure(null)).toBe('—');
    expect(figure(undefined)).toBe('—');
  });
});
