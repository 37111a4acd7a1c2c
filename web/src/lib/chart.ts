/** A line of a graph: its name and one value per point (null where nothing was measured). */
export interface Series {
  name: string;
  values: (number | null)[];
}

/** The top of a graph's scale: the largest value rounded up to 1, 2 or 5 times a power of ten (at least `floor`). */
export function scaleTop(series: Series[], floor = 0): number {
  const largest = Math.max(floor, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  if (largest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= largest) as number;
  return step * power;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * An SVG path drawing `values` across `width` and up to `top` at `height` (y grows downwards).
 * A null breaks the line, so a gap shows where nothing was measured; a lone point is a dot-long
 * segment. Empty when nothing was measured at all.
 */
export function linePath(values: (number | null)[], width: number, height: number, top: number): string {
  const dx = values.length > 1 ? width / (values.length - 1) : 0;
  const parts: string[] = [];
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null) {
      drawing = false;
      return;
    }
    const x = round(i * dx);
    const y = round(height - (Math.min(value, top) / top) * height);
    const alone = !drawing && (values[i + 1] ?? null) === null;
    parts.push(`${drawing ? 'L' : 'M'}${x} ${y}${alone ? ` h0.1` : ''}`);
    drawing = true;
  });
  return parts.join(' ');
}

/** The words a graph stands for, for those who cannot see it: the latest and the highest value of each line. */
export function describeSeries(series: Series[], format: (value: number) => string): string {
  const parts = series.map((s) => {
    const measured = s.values.filter((v): v is number => v !== null);
    const latest = [...s.values].reverse().find((v): v is number => v !== null);
    if (latest === undefined) return `${s.name}: nothing measured`;
    return `${s.name}: now ${format(latest)}, highest ${format(Math.max(...measured))}`;
  });
  return `${parts.join('; ')}.`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Bytes in the largest unit that keeps the number at 1 or more: `1536` reads "1.5 KiB". */
export function bytes(value: number): string {
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;
  return `${scaled.toFixed(digits).replace(/\.0+$|(\.\d*?)0+$/, '$1')} ${UNITS[unit]}`;
}

export const perSecond = (value: number) => `${bytes(value)}/s`;
export const percent = (share: number) => `${Math.round(share * 100)}%`;
