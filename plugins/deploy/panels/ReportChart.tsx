import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ReportDecisionFigures } from '@decisio/domain';
import { useTheme } from '@decisio/sdk-plugin';

/**
 * The measured figures of the two decisions side by side (uPlot bars): per figure (total reward,
 * mean per step, behaviour reward when measured) one bar for A and one for B.
 */
export function ReportChart({ a, b, labels, nameA, nameB }: { a: ReportDecisionFigures; b: ReportDecisionFigures; labels: string[]; nameA: string; nameB: string }) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const dark = theme === 'dark';
    const ink = dark ? '#c5cbd3' : '#404854';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)';
    const figures = (d: ReportDecisionFigures) => [d.totalReward, d.meanRewardPerStep, d.behaviourReward];
    const xs = labels.map((_, i) => i);
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    let plot: uPlot | null = null;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      try {
        plot = new UPlot(
          {
            width: Math.max(320, el.clientWidth || 640),
            height: 240,
            scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
            axes: [{ ...axis, splits: () => xs, values: (_u, ticks) => ticks.map((v) => labels[Math.round(v)] ?? '') }, { ...axis }],
            series: [
              {},
              { label: nameA, stroke: '#2d72d2', fill: 'rgba(45,114,210,0.35)', paths: UPlot.paths.bars?.({ size: [0.35, 60], align: -1 }), points: { show: false } },
              { label: nameB, stroke: '#d1980b', fill: 'rgba(209,152,11,0.35)', paths: UPlot.paths.bars?.({ size: [0.35, 60], align: 1 }), points: { show: false } },
            ],
          },
          [xs, figures(a), figures(b)] as uPlot.AlignedData,
          el,
        );
      } catch {
        // No canvas: the table above the chart still shows every figure.
      }
    }, () => undefined);
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [a, b, labels, nameA, nameB, theme]);
  return <div ref={box} data-testid="report-chart" />;
}
