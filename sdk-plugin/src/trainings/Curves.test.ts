import { describe, expect, it } from 'vitest';
import { seriesOf } from './Curves';

describe('seriesOf', () => {
  it('plots measured points by step, the closing summary point after the last step', () => {
    const s = seriesOf([
      { id: 1, time: null, step: 0, loss: 2 },
      { id: 2, time: null, step: 1, loss: 1 },
      { id: 3, time: null, step: -1, score: 70 },
    ]);
    expect(s.xs).toEqual([0, 1, 2]);
    expect(s.names).toEqual(['loss', 'score']);
    expect(s.values).toEqual([
      [2, 1, null],
      [null, null, 70],
    ]);
  });

  it('keeps x ascending when steps repeat (a resumed job) and numbers points without a step', () => {
    expect(seriesOf([{ step: 3, a: 1 }, { step: 3, a: 2 }, { step: 2, a: 3 }]).xs).toEqual([3, 4, 5]);
    expect(seriesOf([{ a: 1 }, { a: 2 }]).xs).toEqual([0, 1]);
  });
});
