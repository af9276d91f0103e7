/** A small SVG line chart of measured series (no library, same look in both themes). */
import { useGfsT } from '../i18n';

/** Colours readable on the light and the dark theme. */
export const SERIES_COLOURS = ['#2d72d2', '#cd4246', '#238551', '#c87619', '#7961db'];

export interface ChartSeries {
  label: string;
  values: ArrayLike<number>;
  dashed?: boolean;
}

function extent(series: readonly ChartSeries[]): [number, number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  let n = 0;
  for (const s of series) {
    n = Math.max(n, s.values.length);
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i]!;
      if (Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!(hi > lo)) [lo, hi] = [lo - 1, hi + 1];
  return [lo, hi, n];
}

const fmt = (v: number) => (Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(2) : v.toFixed(3));

/** Points of one series, thinned to at most `max` (every k-th). */
function path(values: ArrayLike<number>, n: number, lo: number, hi: number, w: number, h: number, max = 600): string {
  const k = Math.max(1, Math.ceil(values.length / max));
  const pts: string[] = [];
  for (let i = 0; i < values.length; i += k) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    const x = n > 1 ? (i / (n - 1)) * w : 0;
    const y = h - ((v - lo) / (hi - lo)) * h;
    pts.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  return pts.join(' ');
}

export function LineChart(props: { title: string; series: readonly ChartSeries[]; testId?: string; log?: boolean }) {
  const { t } = useGfsT();
  const shown = props.log ? props.series.map((s) => ({ ...s, values: Array.from(s.values, (v) => Math.log10(Math.max(v, 1e-12))) })) : props.series;
  const [lo, hi, n] = extent(shown);
  const W = 600;
  const H = 160;
  const empty = n === 0;
  return (
    <figure className="gfs-chart" data-testid={props.testId} data-points={n} style={{ margin: 0 }}>
      <figcaption>
        <strong>{props.title}</strong>
      </figcaption>
      {empty ? (
        <p className="bp6-text-muted">{t('charts.noData')}</p>
      ) : (
        <svg viewBox={`-48 -8 ${W + 56} ${H + 24}`} role="img" aria-label={props.title}>
          <rect className="gfs-frame" x={0} y={0} width={W} height={H} />
          <text className="gfs-axis" x={-4} y={8} textAnchor="end">{fmt(props.log ? 10 ** hi : hi)}</text>
          <text className="gfs-axis" x={-4} y={H} textAnchor="end">{fmt(props.log ? 10 ** lo : lo)}</text>
          <text className="gfs-axis" x={W} y={H + 14} textAnchor="end">{n}</text>
          {shown.map((s, i) => (
            <polyline key={s.label} fill="none" stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]} strokeWidth={1.5} strokeDasharray={s.dashed ? '4 3' : undefined} points={path(s.values, n, lo, hi, W, H)} />
          ))}
        </svg>
      )}
      <div className="gfs-legend">
        {props.series.map((s, i) => (
          <span key={s.label}>
            <i style={{ background: SERIES_COLOURS[i % SERIES_COLOURS.length] }} />
            {s.label}
          </span>
        ))}
      </div>
    </figure>
  );
}
