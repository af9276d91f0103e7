import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, withHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { Curves } from './Curves';

/** The charts drawn (options and data) by the fake uPlot below: jsdom has no canvas to draw on. */
const drawn: { opts: Record<string, any>; data: (number | null)[][]; destroyed: boolean }[] = [];
vi.mock('uplot', () => ({
  default: class FakeUPlot {
    static paths = {};
    cursor: { idx: number | null } = { idx: null };
    rec: (typeof drawn)[number];
    constructor(opts: Record<string, any>, data: (number | null)[][]) {
      this.rec = { opts, data, destroyed: false };
      drawn.push(this.rec);
      (this.rec as any).plot = this;
    }
    destroy() {
      this.rec.destroyed = true;
    }
  },
}));

const logInput = () => {
  const el = screen.getByTestId('chart-log');
  return (el.tagName === 'INPUT' ? el : el.querySelector('input')!) as HTMLInputElement;
};
const live = () => drawn.filter((d) => !d.destroyed);
const hover = (d: (typeof drawn)[number], idx: number | null) =>
  act(() => {
    const plot = (d as any).plot;
    plot.cursor.idx = idx;
    for (const h of d.opts.hooks.setCursor) h(plot);
  });

/** A policy training as the server measures it: returns in the hundreds, losses below one, samples 1600, 5 members. */
const training = Array.from({ length: 30 }, (_, k) => ({ id: k + 1, time: null, step: k, 'train/return': -300 + k * 10, 'loss/policy': 1 / (k + 1), 'loss/value': 2 / (k + 1), samples: 1600, 'ensemble/members': 5, lr: 0.0003 * 0.9 ** k }));

const show = (props: Partial<Parameters<typeof Curves>[0]> & { points: Parameters<typeof Curves>[0]['points'] }, locale: 'en-US' | 'zh-CN' = 'en-US') => {
  const host = createTestHost({ plugins: [trainingsKitPlugin], locale });
  return render(withHost(host, <Curves stepLabel="Step" {...props} />));
};

describe('Curves (training and deduction charts)', () => {
  beforeEach(() => {
    drawn.length = 0;
    localStorage.clear();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({} as never);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('draws one panel per metric group, counters and constants as numbers, not lines', async () => {
    show({ points: training });
    await waitFor(() => expect(live()).toHaveLength(3));
    const panels = screen.getAllByTestId('chart-panel');
    expect(panels.map((p) => p.dataset.group)).toEqual(['return', 'loss', 'rate']);
    const lines = live().map((d) => d.opts.series.slice(1).map((s: { label: string }) => s.label));
    expect(lines).toEqual([['train/return'], ['loss/policy', 'loss/value'], ['lr']]);
    expect(lines.flat()).not.toContain('samples');
    const numbers = within(screen.getByTestId('chart-numbers'));
    expect(numbers.getByText('samples').nextSibling?.textContent).toBe('1,600');
    expect(numbers.getByText('ensemble/members').nextSibling?.textContent).toBe('5');
    // each panel its own y axis, labelled with its group
    expect(live().map((d) => d.opts.axes[1].label)).toEqual(['Returns and rewards', 'Losses', 'Rates and coefficients']);
    expect(screen.getByTestId('modelling-curves').dataset.points).toBe('30');
  });

  it('gives every series of a chart its own colour, the same in the legend', async () => {
    const points = [0, 1, 2].map((k) => Object.fromEntries([['step', k], ...Array.from({ length: 20 }, (_, i) => [`loss/m${i}`, (i + 1) / (k + 1)])]));
    show({ points });
    await waitFor(() => expect(live()).toHaveLength(1));
    const strokes = live()[0]!.opts.series.slice(1).map((s: { stroke: string }) => s.stroke);
    expect(strokes).toHaveLength(20);
    expect(new Set(strokes).size).toBe(20);
    const swatches = screen.getAllByTestId('chart-legend-item').map((li) => (li.querySelector('[data-colour]') as HTMLElement).dataset.colour);
    expect(swatches).toEqual(strokes);
  });

  it('shows the latest value of each series in the legend, the hovered one while hovering', async () => {
    show({ points: training });
    await waitFor(() => expect(live()).toHaveLength(3));
    const value = (name: string) => within(screen.getAllByTestId('chart-legend-item').find((li) => li.dataset.series === name)!).getByTestId('chart-legend-value').textContent;
    expect(value('train/return')).toBe('-10');
    expect(value('loss/policy')).toBe(String(Number((1 / 30).toPrecision(4))));
    hover(live()[0]!, 3);
    expect(value('train/return')).toBe('-270');
    expect(value('loss/value')).toBe('0.5');
    expect(screen.getByText('Step 3')).toBeTruthy();
    hover(live()[0]!, null);
    expect(value('train/return')).toBe('-10');
  });

  it('ticks the step axis at whole steps only', async () => {
    show({ points: training.slice(0, 4) });
    await waitFor(() => expect(live().length).toBeGreaterThan(0));
    const x = live()[0]!.opts.axes[0];
    const ticks: number[] = x.splits({}, 0, 0, 3, 0.5, 50);
    expect(ticks).toEqual([0, 1, 2, 3]);
    expect(x.values({}, ticks)).toEqual(['0', '1', '2', '3']);
  });

  it('smoothing and log scale are toggles kept per chart', async () => {
    show({ points: training, chartId: 'policy' });
    await waitFor(() => expect(live()).toHaveLength(3));
    fireEvent.change(screen.getByTestId('chart-smoothing'), { target: { value: '0.9' } });
    await waitFor(() => expect(live()[0]!.opts.series).toHaveLength(3)); // raw (faint) and EMA
    const ret = live()[0]!;
    expect(ret.opts.series[2].label).toBe('train/return (EMA)');
    expect(ret.data[2]![29]).not.toBe(ret.data[1]![29]); // smoothed lags the raw line
    expect(ret.data[1]![29]).toBe(-10); // raw stays the measured value
    fireEvent.click(logInput());
    await waitFor(() => expect(live()[1]!.opts.scales.y.distr).toBe(3)); // losses positive: logarithmic
    expect(live()[0]!.opts.scales.y.distr).toBe(4); // returns negative: arcsinh
    cleanup();
    // a new chart with the same id starts with those settings; another chart does not
    show({ points: training, chartId: 'policy' });
    expect((screen.getByTestId('chart-smoothing') as HTMLSelectElement).value).toBe('0.9');
    expect(logInput().checked).toBe(true);
    cleanup();
    show({ points: training, chartId: 'other' });
    expect((screen.getByTestId('chart-smoothing') as HTMLSelectElement).value).toBe('0');
  });

  it('plots a deduction over its full step count, downsampled, real against simulated on one axis', async () => {
    const n = 10_000;
    const points = Array.from({ length: n }, (_, k) => ({ step: k, Simulated: Math.sin(k / 100) + (k === 6543 ? 50 : 0), Real: Math.cos(k / 100) }));
    show({ points, compare: true });
    await waitFor(() => expect(live()).toHaveLength(1));
    const [xs, sim, real] = live()[0]!.data;
    expect(xs!.length).toBeLessThan(n / 4);
    expect(xs![0]).toBe(0);
    expect(xs![xs!.length - 1]).toBe(n - 1);
    expect(Math.max(...(sim as number[]))).toBe(50 + Math.sin(65.43));
    expect(real).toHaveLength(xs!.length);
    expect(screen.getByTestId('modelling-curves').dataset.points).toBe(String(n));
    expect(screen.queryByTestId('chart-numbers')).toBeNull();
  });

  it('shows a single measured value as a number, not a one-point curve', async () => {
    show({ points: [{ id: 1, time: null, step: 0, score: 0.87 }] });
    expect(within(screen.getByTestId('chart-numbers')).getByText('0.87')).toBeTruthy();
    expect(screen.queryByTestId('chart-panel')).toBeNull();
    await act(async () => undefined);
    expect(live()).toHaveLength(0);
  });

  it('has an empty and a loading state, in both languages', () => {
    show({ points: [] }, 'zh-CN');
    expect(screen.getByTestId('modelling-curves-empty').textContent).not.toBe('');
    expect(screen.getByTestId('modelling-curves-empty').textContent).not.toMatch(/[a-z]{4}/);
    cleanup();
    show({ points: [], loading: true });
    expect(screen.getByLabelText('Loading…')).toBeTruthy();
    cleanup();
    show({ points: training }, 'zh-CN');
    expect(screen.getByText('平滑')).toBeTruthy();
    expect(screen.getByText('对数坐标')).toBeTruthy();
  });
});
