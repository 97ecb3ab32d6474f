// Charts drawn on the server as SVG, no chart library (ADR 0030): a column chart for a series of
// days and a bar list for a ranking. Each is an <svg role="img"> named by its <title> and
// described by its <desc>, with a <title> per bar (the browser's own hover text), and the same
// figures in a real <table> behind a <details> for screen readers and for reading exact values.
// The drawing scales to its box (viewBox), laid out for a 390 px phone first. With JavaScript a
// column chart also shows the value under the pointer or finger (a few lines of state, no more).
import type { ReactNode } from "react";
import { useState } from "react";

/** The drawing's own units: as wide as a phone's card, so its text reads at its size there. */
const WIDTH = 340;

export interface Column {
  key: string;
  /** the label under the column on the axis (a few are shown) and in the table */
  label: string;
  value: number;
}

/** A round ceiling for an axis: 1, 2, 2.5 or 5 times a power of ten, at least `max`. */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= max)!;
  return step * power;
}

function FigureTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: ReactNode[][] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-wood-700 underline">
        Show the figures as a table
      </summary>
      {/* A long table scrolls in its box; the box takes the keyboard's focus so it scrolls without a pointer too. */}
      <div className="mt-2 max-h-80 overflow-auto rounded-lg border border-sand-200" tabIndex={0} role="group" aria-label={caption}>
        <table className="w-full text-left">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-sand-50 text-xs uppercase tracking-wide text-stone-600">
            <tr>
              {headers.map((h, i) => (
                <th key={h} scope="col" className={`px-3 py-2 font-semibold ${i > 0 ? "text-right" : ""}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-sand-200">
            {rows.map((cells, r) => (
              <tr key={r}>
                {cells.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-3 py-1.5 font-normal">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-3 py-1.5 text-right tabular-nums">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/**
 * A figure: its heading, a line that sums it up, the drawing (or `empty` when there is nothing to
 * draw) and its table.
 */
export function ChartFigure({
  id,
  heading,
  summary,
  empty,
  children,
  table,
}: {
  id: string;
  heading: string;
  summary: string;
  /** shown instead of the drawing and the table when set */
  empty?: string | null;
  children: ReactNode;
  table: { caption: string; headers: string[]; rows: ReactNode[][] };
}) {
  return (
    <section className="card min-w-0 p-5" aria-labelledby={`${id}-heading`} data-testid={`figure-${id}`}>
      <h3 id={`${id}-heading`} className="font-semibold">
        {heading}
      </h3>
      <p className="mt-1 text-sm text-stone-600">{summary}</p>
      {empty ? (
        <p className="mt-4 rounded-lg bg-sand-50 p-4 text-sm text-stone-600">{empty}</p>
      ) : (
        <>
          <div className="mt-3">{children}</div>
          <FigureTable {...table} />
        </>
      )}
    </section>
  );
}

/**
 * Columns over a series (days): the y axis with three round marks, the first, middle and last
 * labels under the columns. `title` names the drawing, `description` says what it shows.
 */
export function ColumnChart({
  id,
  title,
  description,
  columns,
  format,
  axisFormat,
  whole = false,
  className = "fill-wood-500",
}: {
  id: string;
  title: string;
  description: string;
  columns: Column[];
  format: (v: number) => string;
  axisFormat: (v: number) => string;
  /** counts: the middle mark is a whole number too */
  whole?: boolean;
  className?: string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const height = 170;
  const left = 44;
  const right = 6;
  const top = 10;
  const bottom = 22;
  const plotW = WIDTH - left - right;
  const plotH = height - top - bottom;
  const round = niceCeiling(Math.max(0, ...columns.map((c) => c.value)));
  const ceiling = whole && round % 2 ? round + 1 : round;
  const slot = plotW / Math.max(1, columns.length);
  const gap = Math.min(2, slot * 0.25);
  const y = (v: number) => top + plotH - (Math.max(0, v) / ceiling) * plotH;
  const ticks = [0, ceiling / 2, ceiling];
  const labelled = new Set([0, Math.floor((columns.length - 1) / 2), columns.length - 1]);
  const pick = (clientX: number, svg: SVGSVGElement) => {
    const box = svg.getBoundingClientRect();
    const x = ((clientX - box.left) / box.width) * WIDTH - left;
    const i = Math.floor(x / slot);
    setActive(i >= 0 && i < columns.length ? i : null);
  };
  const shown = active === null ? null : columns[active];
  return (
    <div className="relative">
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="block h-auto w-full touch-pan-y"
        onPointerMove={(e) => pick(e.clientX, e.currentTarget)}
        onPointerDown={(e) => pick(e.clientX, e.currentTarget)}
        onPointerLeave={() => setActive(null)}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={WIDTH - right} y1={y(t)} y2={y(t)} className="stroke-sand-200" strokeWidth={1} />
            <text x={left - 6} y={y(t) + 4} textAnchor="end" className="fill-stone-600 text-[11px]">
              {axisFormat(t)}
            </text>
          </g>
        ))}
        {columns.map((c, i) => {
          const h = Math.max(c.value > 0 ? 1 : 0, top + plotH - y(c.value));
          return (
            <rect
              key={c.key}
              x={left + i * slot + gap / 2}
              y={top + plotH - h}
              width={Math.max(0.5, slot - gap)}
              height={h}
              rx={slot > 6 ? 1.5 : 0}
              className={active === i ? "fill-wood-800" : className}
            >
              <title>{`${c.label}: ${format(c.value)}`}</title>
            </rect>
          );
        })}
        {columns.map((c, i) =>
          labelled.has(i) ? (
            <text
              key={c.key}
              x={left + i * slot + slot / 2}
              y={height - 6}
              textAnchor={i === 0 ? "start" : i === columns.length - 1 ? "end" : "middle"}
              className="fill-stone-600 text-[11px]"
            >
              {c.label}
            </text>
          ) : null,
        )}
      </svg>
      {shown ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute top-0 rounded-md bg-ink px-2 py-1 text-xs font-medium whitespace-nowrap text-white shadow"
          style={{
            left: `${((left + active! * slot + slot / 2) / WIDTH) * 100}%`,
            transform: `translateX(${active! < columns.length / 2 ? "0" : "-100%"})`,
          }}
          data-testid="chart-tooltip"
        >
          {shown.label}: {format(shown.value)}
        </div>
      ) : null}
    </div>
  );
}

export interface Bar {
  key: string;
  label: string;
  value: number;
  /** what the bar's right-hand text says (its value, formatted, and any second figure) */
  valueText: string;
  /** a Tailwind fill class; the wood accent unless given */
  className?: string;
}

/** A ranking as horizontal bars: each row its label and value in words above its bar. */
export function BarList({ id, title, description, bars }: { id: string; title: string; description: string; bars: Bar[] }) {
  const row = 38;
  const height = bars.length * row + 2;
  const max = Math.max(0, ...bars.map((b) => b.value));
  return (
    <svg role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${WIDTH} ${height}`} className="block h-auto w-full">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {bars.map((b, i) => {
        const top = i * row;
        const w = max > 0 ? (Math.max(0, b.value) / max) * WIDTH : 0;
        // About 7 units a character at this size: the label gives way to the value.
        const room = Math.max(8, Math.floor(WIDTH / 7) - b.valueText.length - 2);
        return (
          <g key={b.key}>
            <title>{`${b.label}: ${b.valueText}`}</title>
            <text x={0} y={top + 14} className="fill-ink text-[13px]">
              {b.label.length > room ? `${b.label.slice(0, room - 1)}…` : b.label}
            </text>
            <text x={WIDTH} y={top + 14} textAnchor="end" className="fill-stone-700 text-[13px] font-semibold">
              {b.valueText}
            </text>
            <rect x={0} y={top + 21} width={WIDTH} height={9} rx={4.5} className="fill-sand-100" />
            <rect
              x={0}
              y={top + 21}
              width={Math.max(b.value > 0 ? 4 : 0, w)}
              height={9}
              rx={4.5}
              className={b.className ?? "fill-wood-500"}
            />
          </g>
        );
      })}
    </svg>
  );
}
