import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTheme } from '@decisio/sdk-plugin';

const COLOURS = ['#2d72d2', '#d1980b', '#238551', '#cd4246', '#7961db', '#00a396', '#c22762', '#8f398f'];

/** Numeric series of the measured points (every key but `id`, `time` and `step`). */
export function seriesOf(points: readonly Record<string, unknown>[]): { xs: number[]; names: string[]; values: (number | null)[][] } {
  const names = [...new Set(points.flatMap((p) => Object.keys(p).filter((k) => k !== 'id' && k !== 'time' && k !== 'step' && typeof p[k] === 'number')))];
  // x is the step; the closing summary point of a job (`step` -1) goes after the last step, and
  // x never goes back (uPlot needs ascending x).
  const xs: number[] = [];
  points.forEach((p, i) => {
    const prev = xs.length ? xs[xs.length - 1]! : -Infinity;
    const x = typeof p.step === 'number' && p.step >= 0 ? p.step : i === 0 ? 0 : prev + 1;
    xs.push(x > prev ? x : prev + 1);
  });
  const values = names.map((n) => points.map((p) => (typeof p[n] === 'number' && Number.isFinite(p[n]) ? (p[n] as number) : null)));
  return { xs, names, values };
}

/** Whether this browser can draw on a canvas (jsdom and some locked-down browsers cannot). */
function canDraw(): boolean {
  try {
    return typeof document !== 'undefined' && document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/** Training curves (measured points only), one line per metric, drawn with uPlot. */
export function Curves({ points, stepLabel }: { points: readonly Record<string, unknown>[]; stepLabel: string }) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const el = box.current;
    if (!el || points.length === 0 || !canDraw()) return;
    const dark = theme === 'dark';
    const ink = dark ? '#c5cbd3' : '#404854';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const { xs, names, values } = seriesOf(points);
    let plot: uPlot | null = null;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      try {
        plot = new UPlot(
          {
            width: Math.max(320, el.clientWidth || 640),
            height: 260,
            scales: { x: { time: false } },
            axes: [{ ...axis, label: stepLabel }, { ...axis }],
            series: [{ label: stepLabel }, ...names.map((n, i) => ({ label: n, stroke: COLOURS[i % COLOURS.length], width: 2, spanGaps: true }))],
          },
          [xs, ...values] as uPlot.AlignedData,
          el,
        );
        el.dataset.points = String(xs.length);
      } catch {
        // No canvas: the chart stays empty; the log still shows the values.
      }
    }, () => undefined);
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [points, theme, stepLabel]);
  // `data-points`: how many measured points the drawn chart holds (set once it is drawn).
  return <div ref={box} data-testid="modelling-curves" />;
}
