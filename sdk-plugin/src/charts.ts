/**
 * uPlot charts of the panels (`@decisio/sdk-plugin/charts`; service monitor, analysis report): the theme's axis colours,
 * uPlot loaded with the first chart (it reads `matchMedia` when imported), the chart redrawn when
 * its inputs or the theme change and destroyed when it goes.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTheme } from './react';

/** Axis colours (text, grid lines and ticks) in the workbench theme. */
export type ChartAxis = Pick<uPlot.Axis, 'stroke' | 'grid' | 'ticks'>;

/** What a chart draws: uPlot's options (without the width, the element's) and data. */
export type ChartBuild = (UPlot: typeof uPlot, axis: ChartAxis) => { options: Omit<uPlot.Options, 'width'>; data: uPlot.AlignedData };

/**
 * Draws the chart that `build` describes into the element of the returned ref, at the element's
 * width (at least 320 px). `deps` are the inputs of `build`: a change (or of the theme) redraws.
 * Without canvas (very old browsers) the element stays empty; the panels show the figures too.
 */
export function useUPlot(build: ChartBuild, deps: readonly unknown[]): RefObject<HTMLDivElement | null> {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const dark = theme === 'dark';
    const ink = dark ? '#c5cbd3' : '#404854';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)';
    const axis: ChartAxis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    let plot: uPlot | null = null;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      try {
        const { options, data } = build(UPlot, axis);
        plot = new UPlot({ ...options, width: Math.max(320, el.clientWidth || 640) }, data, el);
      } catch {
        // No canvas: the chart stays empty.
      }
    }, () => undefined);
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [theme, ...deps]);
  return box;
}
