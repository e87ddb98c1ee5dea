/**
 * A log-log line chart as a standalone SVG, written by hand from the data (no
 * chart library): decade gridlines, one line per series, each point with its
 * value and a bar for its range over the rounds.
 */
import { fmt } from '../stats.js';

export interface ChartPoint {
  readonly x: number;
  readonly y: number;
  /** The range over the rounds, drawn as an error bar. */
  readonly low: number;
  readonly high: number;
}

export interface ChartSeries {
  readonly name: string;
  readonly color: string;
  /** A reference series: drawn thin and dashed, without values. */
  readonly dashed?: boolean;
  readonly points: readonly ChartPoint[];
}

export interface ChartSpec {
  readonly title: string;
  readonly subtitle: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
}

const WIDTH = 760;
const HEIGHT = 500;
const PLOT = { left: 86, right: 24, top: 64, bottom: 138 };

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function decades(values: readonly number[]): { from: number; to: number } {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0);
  const lo = Math.floor(Math.log10(Math.min(...finite)));
  const hi = Math.ceil(Math.log10(Math.max(...finite)));
  return { from: lo, to: hi === lo ? lo + 1 : hi };
}

function tickLabel(exponent: number): string {
  const value = 10 ** exponent;
  return value >= 1 ? value.toLocaleString('en-US') : String(Number(value.toPrecision(1)));
}

export function logLogChart(spec: ChartSpec): string {
  const points = spec.series.flatMap((s) => s.points);
  const xs = decades(points.map((p) => p.x));
  const ys = decades(points.flatMap((p) => [p.y, p.low, p.high]));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  // Half a decade of padding on x so the end points and their labels sit inside the frame.
  const xFrom = xs.from - 0.25;
  const xTo = xs.to + 0.25;
  const px = (x: number) => PLOT.left + ((Math.log10(x) - xFrom) / (xTo - xFrom)) * plotWidth;
  const py = (y: number) => PLOT.top + plotHeight - ((Math.log10(y) - ys.from) / (ys.to - ys.from)) * plotHeight;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`,
    `<title>${xml(spec.title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="26" font-size="16" font-weight="600" fill="#1f2328">${xml(spec.title)}</text>`,
    `<text x="${PLOT.left}" y="46" fill="#59636e">${xml(spec.subtitle)}</text>`,
  );
  // Gridlines: decades solid, 2..9 faint.
  for (let e = ys.from; e <= ys.to; e++) {
    const y = py(10 ** e);
    out.push(`<line x1="${PLOT.left}" x2="${PLOT.left + plotWidth}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#d1d9e0"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${(y + 4).toFixed(1)}" text-anchor="end" fill="#59636e">${tickLabel(e)}</text>`);
    if (e < ys.to) {
      for (let m = 2; m < 10; m++) {
        const ym = py(m * 10 ** e);
        out.push(`<line x1="${PLOT.left}" x2="${PLOT.left + plotWidth}" y1="${ym.toFixed(1)}" y2="${ym.toFixed(1)}" stroke="#eff2f5"/>`);
      }
    }
  }
  for (let e = xs.from; e <= xs.to; e++) {
    const x = px(10 ** e);
    out.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${PLOT.top}" y2="${PLOT.top + plotHeight}" stroke="#d1d9e0"/>`);
    out.push(`<text x="${x.toFixed(1)}" y="${PLOT.top + plotHeight + 18}" text-anchor="middle" fill="#59636e">${tickLabel(e)}</text>`);
  }
  out.push(
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#818b98"/>`,
    `<text x="${PLOT.left + plotWidth / 2}" y="${PLOT.top + plotHeight + 40}" text-anchor="middle" fill="#1f2328">${xml(spec.xLabel)}</text>`,
    `<text transform="translate(22 ${PLOT.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" fill="#1f2328">${xml(spec.yLabel)}</text>`,
  );
  for (const s of spec.series) {
    const path = s.points.map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)} ${py(p.y).toFixed(1)}`).join(' ');
    const stroke = s.dashed ? 'stroke-width="1.5" stroke-dasharray="6 4"' : 'stroke-width="2.5"';
    out.push(`<path d="${path}" fill="none" stroke="${s.color}" ${stroke}/>`);
    if (s.dashed) continue;
    for (const p of s.points) {
      const x = px(p.x);
      out.push(
        `<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${py(p.low).toFixed(1)}" y2="${py(p.high).toFixed(1)}" stroke="${s.color}" stroke-width="1.5"/>`,
        `<circle cx="${x.toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="4" fill="${s.color}"/>`,
        `<text x="${(x + 8).toFixed(1)}" y="${(py(p.y) - 8).toFixed(1)}" fill="${s.color}" font-weight="600">${xml(fmt(p.y))}</text>`,
      );
    }
  }
  // Legend under the axis label.
  spec.series.forEach((s, i) => {
    const y = PLOT.top + plotHeight + 66 + i * 20;
    out.push(
      `<line x1="${PLOT.left}" x2="${PLOT.left + 24}" y1="${y - 4}" y2="${y - 4}" stroke="${s.color}" ${s.dashed ? 'stroke-width="1.5" stroke-dasharray="6 4"' : 'stroke-width="2.5"'}/>`,
      `<text x="${PLOT.left + 32}" y="${y}" fill="#1f2328">${xml(s.name)}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}
