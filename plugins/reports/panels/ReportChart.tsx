import type uPlot from 'uplot';
import type { ReportDecisionFigures } from '@decisio/domain';
import { useUPlot } from '@decisio/sdk-plugin/charts';

/**
 * The measured figures of the two decisions side by side (uPlot bars): per figure (total reward,
 * mean per step, behaviour reward when measured) one bar for A and one for B. Without canvas the
 * table above the chart still shows every figure.
 */
export function ReportChart({ a, b, labels, nameA, nameB }: { a: ReportDecisionFigures; b: ReportDecisionFigures; labels: string[]; nameA: string; nameB: string }) {
  const box = useUPlot(
    (UPlot, axis) => {
      const figures = (d: ReportDecisionFigures) => [d.totalReward, d.meanRewardPerStep, d.behaviourReward];
      const xs = labels.map((_, i) => i);
      return {
        options: {
          height: 240,
          scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
          axes: [{ ...axis, splits: () => xs, values: (_u, ticks) => ticks.map((v) => labels[Math.round(v)] ?? '') }, { ...axis }],
          series: [
            {},
            { label: nameA, stroke: '#2d72d2', fill: 'rgba(45,114,210,0.35)', paths: UPlot.paths.bars?.({ size: [0.35, 60], align: -1 }), points: { show: false } },
            { label: nameB, stroke: '#d1980b', fill: 'rgba(209,152,11,0.35)', paths: UPlot.paths.bars?.({ size: [0.35, 60], align: 1 }), points: { show: false } },
          ],
        },
        data: [xs, figures(a), figures(b)] as uPlot.AlignedData,
      };
    },
    [a, b, labels, nameA, nameB],
  );
  return <div ref={box} data-testid="report-chart" />;
}
