import type { ModelServiceMonitor } from '@decisio/domain';
import { useUPlot } from '@decisio/sdk-plugin/charts';

/** Calls (bars) and average latency (line, right axis) per bucket of the monitor, drawn with uPlot. */
export function MonitorChart({ monitor, callsLabel, latencyLabel, locale }: { monitor: ModelServiceMonitor; callsLabel: string; latencyLabel: string; locale: string }) {
  const box = useUPlot(
    (UPlot, axis) => {
      const xs = monitor.buckets.map((b) => new Date(b.start).getTime() / 1000);
      const calls = monitor.buckets.map((b) => b.calls);
      const latency = monitor.buckets.map((b) => b.avgMs);
      const fmt = monitor.unit === 'day' ? { hour: '2-digit', minute: '2-digit' } : monitor.unit === 'year' ? { year: 'numeric', month: 'short' } : { month: 'short', day: 'numeric' };
      return {
        options: {
          height: 220,
          scales: { x: { time: true }, ms: { auto: true } },
          axes: [
            { ...axis, values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toLocaleString(locale, fmt as Intl.DateTimeFormatOptions)) },
            { ...axis, label: callsLabel },
            { ...axis, scale: 'ms', side: 1, label: latencyLabel },
          ],
          series: [
            {},
            { label: callsLabel, stroke: '#2d72d2', fill: 'rgba(45,114,210,0.25)', paths: UPlot.paths.bars?.({ size: [0.6, 40] }) },
            { label: latencyLabel, scale: 'ms', stroke: '#d1980b', width: 2, spanGaps: true },
          ],
        },
        data: [xs, calls, latency as (number | null)[]],
      };
    },
    [monitor, callsLabel, latencyLabel, locale],
  );
  return <div ref={box} data-testid="deploy-monitor-chart" />;
}
