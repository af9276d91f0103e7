/** A failed job keeps its error in both interface languages when the error speaks both. */
import { describe, expect, it } from 'vitest';
import { LearningError } from '@decisio/learning';
import { jobErrorText } from './runner';

describe('jobErrorText', () => {
  it('keeps a learning error in English and Chinese, other errors as they are', () => {
    const e = new LearningError('reward.nonFinite', { function: 'get_reward', count: 1, total: 4, rows: '2', results: 'nan', values: '#2: next_obs=[1.5]' });
    const text = jobErrorText(e);
    expect(text.split('\n')).toEqual([e.message, e.localized('zh-CN')]);
    expect(text).toContain('rows 2');
    expect(text).toContain('出错的行：2');
    expect(jobErrorText(new Error('plain'))).toBe('plain');
    expect(jobErrorText('text')).toBe('text');
  });
});
