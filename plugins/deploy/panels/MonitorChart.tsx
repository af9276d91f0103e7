import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ModelServiceMonitor } from '@decisio/domain';
import { useTheme } from '@decisio/sdk-plugin';

/** Calls (bars) and average latency (line, right axis) per bucket of the monitor, drawn with uPlot. */
export function MonitorChart({ monitor, callsLabel, latencyLabel, locale }: { monitor: ModelServiceMonitor; callsLabel: string; latencyLabel: string; locale: string }) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const dark = theme === 'dark';
    const ink = dark ? '#c5cbd3' : '#404854';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)';
    const xs = monitor.buckets.map((b) => new Date(b.start).getTime() / 1000);
    const calls = monitor.buckets.map((b) => b.calls);
    const latency = monitor.buckets.map((b) => b.avgMs);
    const fmt = monitor.unit === 'day' ? { hour: '2-digit', minute: '2-digit' } : monitor.unit === 'year' ? { year: 'numeric', month: 'short' } : { month: 'short', day: 'numeric' };
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    let plot: uPlot | null = null;
    let cancelled = false;
    // uPlot loads with the chart (it reads `matchMedia` when imported).
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      try {
        plot = new UPlot(
        {
          width: Math.max(320, el.clientWidth || 640),
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
        [xs, calls, latency as (number | null)[]],
        el,
      );
      } catch {
        // No canvas (very old browsers): the chart stays empty; the records still show the calls.
      }
    }, () => undefined);
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [monitor, theme, callsLabel, latencyLabel, locale]);
  return <div ref={box} data-testid="deploy-monitor-chart" />;
}
