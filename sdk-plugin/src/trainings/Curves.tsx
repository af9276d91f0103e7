import { useEffect, useMemo, useRef, useState } from 'react';
import { HTMLSelect, Spinner, Switch } from '@blueprintjs/core';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useLocale, useTheme } from '../index';
import { useTrainingsT } from './i18n';
import { chartColours, downsample, ema, formatValue, groupSeries, integerTicks, latestValue, legendValue, logDistr, SMOOTHING, type GroupedSeries, type MetricGroup } from './chart';

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

/** uPlot, loaded once with the first chart (it reads `matchMedia` when imported). */
let uPlotModule: Promise<{ default: typeof uPlot }> | null = null;
const loadUPlot = () => (uPlotModule ??= import('uplot'));

/** Points drawn per series at most (min/max buckets: twice this many points at most per series). */
const BUCKETS = 400;

/** Chart settings kept per chart (`chartId`) in the browser, so a redraw or a reopened detail keeps them. */
function useChartSetting<T extends number | boolean>(chartId: string | undefined, name: string, initial: T): [T, (v: T) => void] {
  const key = chartId ? `decisio.modelling.chart.${chartId}.${name}` : null;
  const [value, setValue] = useState<T>(() => {
    if (!key) return initial;
    try {
      const saved = globalThis.localStorage?.getItem(key);
      if (saved === null || saved === undefined) return initial;
      const parsed: unknown = JSON.parse(saved);
      return typeof parsed === typeof initial ? (parsed as T) : initial;
    } catch {
      return initial;
    }
  });
  return [
    value,
    (v: T) => {
      setValue(v);
      try {
        if (key) globalThis.localStorage?.setItem(key, JSON.stringify(v));
      } catch {
        // storage full or refused: the setting lasts as long as the chart
      }
    },
  ];
}

interface PanelProps {
  xs: number[];
  names: string[];
  values: (number | null)[][];
  colours: string[];
  axisLabel: string;
  stepLabel: string;
  smoothing: number;
  log: boolean;
  syncKey: string;
  hovered: number | null;
  onHover: (index: number | null) => void;
  onDrawn: () => void;
  group: MetricGroup | 'compare';
}

/** One panel: the series of one group on one y axis, drawn with uPlot, and its legend. */
function ChartPanel({ xs, names, values, colours, axisLabel, stepLabel, smoothing, log, syncKey, hovered, onHover, onDrawn, group }: PanelProps) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  const locale = useLocale();
  const hover = useRef(onHover);
  hover.current = onHover;
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;
  useEffect(() => {
    const el = box.current;
    if (!el || xs.length === 0 || !canDraw()) return;
    const dark = theme === 'dark';
    const ink = dark ? '#c5cbd3' : '#404854';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)';
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    // Smoothed lines over the measured points; the raw ones stay, faint, under them.
    const smooth = smoothing > 0;
    const lines = smooth ? [...values, ...values.map((v) => ema(v, smoothing))] : values;
    const { xs: dx, series } = downsample(xs, lines, BUCKETS);
    // Index of each drawn point among the measured ones (the legend reads the measured values).
    const origin = new Map(xs.map((x, i) => [x, i]));
    let plot: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    let cancelled = false;
    void loadUPlot().then(({ default: UPlot }) => {
      if (cancelled) return;
      try {
        const width = Math.max(320, el.clientWidth || 640);
        const seriesOpts: uPlot.Series[] = smooth
          ? [...names.map((n, i) => ({ label: n, stroke: `${colours[i]}55`, width: 1, spanGaps: true })), ...names.map((n, i) => ({ label: `${n} (EMA)`, stroke: colours[i], width: 2, spanGaps: true }))]
          : names.map((n, i) => ({ label: n, stroke: colours[i], width: 2, spanGaps: true, points: { show: xs.length < 40 } }));
        plot = new UPlot(
          {
            width,
            height: 200,
            legend: { show: false },
            cursor: { sync: { key: syncKey }, drag: { x: true, y: false } },
            scales: { x: { time: false }, y: log ? { distr: logDistr(values), log: 10 } : {} },
            axes: [
              {
                ...axis,
                label: stepLabel,
                splits: (_u, _i, min, max) => integerTicks(min, max, Math.max(2, Math.floor(width / 80))),
                values: (_u, ticks) => ticks.map((t) => String(t)),
              },
              { ...axis, label: axisLabel, size: 64, values: (_u, ticks) => ticks.map((t) => formatValue(t, locale)) },
            ],
            series: [{ label: stepLabel }, ...seriesOpts],
            hooks: {
              setCursor: [
                (u) => {
                  const i = u.cursor.idx;
                  hover.current(i === null || i === undefined ? null : (origin.get(dx[i]!) ?? null));
                },
              ],
            },
          },
          [dx, ...series] as uPlot.AlignedData,
          el,
        );
        drawn.current();
        // Follow the panel's width (docked panels resize).
        if (typeof ResizeObserver !== 'undefined') {
          resize = new ResizeObserver(() => {
            const w = Math.max(320, el.clientWidth || 640);
            if (plot && Math.abs(w - plot.width) > 1) plot.setSize({ width: w, height: 200 });
          });
          resize.observe(el);
        }
      } catch {
        // No canvas: the chart stays empty; the legend and the log still show the values.
      }
    }, () => undefined);
    return () => {
      cancelled = true;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [xs, names, values, colours, axisLabel, stepLabel, smoothing, log, syncKey, theme, locale]);
  return (
    <div className="modelling-chart-panel" data-testid="chart-panel" data-group={group}>
      <div ref={box} />
      <ul className="modelling-chart-legend" data-testid="chart-legend">
        {names.map((n, i) => (
          <li key={n} data-testid="chart-legend-item" data-series={n}>
            <span className="modelling-chart-swatch" style={{ background: colours[i] }} data-colour={colours[i]} aria-hidden />
            <span className="modelling-chart-name">{n}</span>{' '}
            <strong data-testid="chart-legend-value">{formatValue(legendValue(values[i]!, hovered), locale)}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}

let charts = 0;

/**
 * Training curves and deduction series (measured points only), drawn with uPlot. Training
 * metrics are grouped by kind ({@link groupSeries}): one panel, with its own y axis, per group;
 * counters and constants are numbers beside the chart. `compare` draws every series on one axis
 * (real against simulated or decided values, same unit). Colours never repeat within a chart; the
 * legend shows each series' latest value, or the hovered one; steps are integer ticks; long
 * series are downsampled for drawing (min/max buckets). Smoothing and log scale are per chart
 * (kept in the browser under `chartId`).
 */
export function Curves({ points, stepLabel, compare = false, loading = false, chartId }: { points: readonly Record<string, unknown>[]; stepLabel: string; compare?: boolean; loading?: boolean; chartId?: string }) {
  const { t } = useTrainingsT();
  const locale = useLocale();
  const [syncKey] = useState(() => `modelling-chart-${++charts}`);
  const [smoothing, setSmoothing] = useChartSetting<number>(chartId, 'smoothing', 0);
  const [log, setLog] = useChartSetting<boolean>(chartId, 'log', false);
  const [hovered, setHovered] = useState<number | null>(null);
  const [drawnPoints, setDrawnPoints] = useState<number | undefined>(undefined);
  const { xs, names, values } = useMemo(() => seriesOf(points), [points]);
  const colours = useMemo(() => chartColours(names.length), [names.length]);
  const grouped: GroupedSeries = useMemo(() => (compare ? { panels: names.length ? [{ group: 'other' as const, series: names.map((_, i) => i) }] : [], numbers: [] } : groupSeries(names, values)), [compare, names, values]);
  const panels = useMemo(
    () =>
      grouped.panels.map((p) => ({
        group: p.group,
        names: p.series.map((i) => names[i]!),
        values: p.series.map((i) => values[i]!),
        colours: p.series.map((i) => colours[i]!),
      })),
    [grouped, names, values, colours],
  );
  const idPrefix = `${syncKey}-`;

  if (loading) return <Spinner size={20} aria-label={t('common.loading')} />;
  if (points.length === 0)
    return (
      <p className="bp6-text-muted" data-testid="modelling-curves-empty">
        {t('detail.noPoints')}
      </p>
    );
  const groupLabel = (g: MetricGroup) => t(`chart.groups.${g}` as Parameters<typeof t>[0]);
  // `data-points`: how many measured points the chart holds, set once a panel has drawn them
  // (at once where every series is a number).
  return (
    <div data-testid="modelling-curves" data-points={panels.length === 0 ? xs.length : drawnPoints} className="modelling-curves">
      {panels.length > 0 && (
        <div className="modelling-toolbar modelling-chart-tools">
          <label htmlFor={`${idPrefix}smoothing`}>{t('chart.smoothing')}</label>
          <HTMLSelect id={`${idPrefix}smoothing`} minimal value={String(smoothing)} onChange={(e) => setSmoothing(Number(e.currentTarget.value))} data-testid="chart-smoothing">
            {SMOOTHING.map((s) => (
              <option key={s} value={String(s)}>
                {s === 0 ? t('chart.smoothingOff') : s.toFixed(2)}
              </option>
            ))}
          </HTMLSelect>
          <Switch inline checked={log} label={t('chart.log')} onChange={(e) => setLog(e.currentTarget.checked)} data-testid="chart-log" style={{ margin: 0 }} />
          {hovered !== null && xs[hovered] !== undefined && <small className="bp6-text-muted">{t('chart.at', { step: xs[hovered] })}</small>}
        </div>
      )}
      {grouped.numbers.length > 0 && (
        <dl className="modelling-chart-numbers" data-testid="chart-numbers" aria-label={t('chart.groups.counter')}>
          {grouped.numbers.map((i) => (
            <div key={names[i]} data-testid="chart-number" data-series={names[i]}>
              <dt>{names[i]}</dt>
              <dd>{formatValue(latestValue(values[i]!), locale)}</dd>
            </div>
          ))}
        </dl>
      )}
      {panels.map((p) => (
        <ChartPanel
          key={p.group}
          group={compare ? 'compare' : p.group}
          xs={xs}
          names={p.names}
          values={p.values}
          colours={p.colours}
          axisLabel={compare ? '' : groupLabel(p.group)}
          stepLabel={stepLabel}
          smoothing={smoothing}
          log={log}
          syncKey={syncKey}
          hovered={hovered}
          onHover={setHovered}
          onDrawn={() => setDrawnPoints(xs.length)}
        />
      ))}
    </div>
  );
}
