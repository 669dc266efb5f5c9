/**
 * The report of the localization bench (`localize_bench.ts`): the means as a Markdown table and
 * as an SVG bar chart (measures along the axis, systems side by side). Pure: the bench writes
 * what these return.
 *
 * @module
 */
import { mean, type Measure, MEASURES, type Tally } from "./localize_measures.ts";

/** One system's tallies over a run. */
export interface SystemSummary {
  /** The system's name, e.g. `bm25-functions`. */
  system: string;
  /** Its tally per measure (`n` 0 where the measure does not apply to it). */
  tallies: Record<Measure, Tally>;
}

function cell(t: Tally): string {
  const value = mean(t);
  return value === null ? "—" : `${value.toFixed(2)} (${t.hits}/${t.n})`;
}

/**
 * The means as a Markdown table: one row per system, one column per measure, each cell
 * `mean (hits/n)`, `—` where the measure does not apply; a last line says how many instances
 * each measure left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownTable } from "./localize_report.ts";
 * import { tally } from "./localize_measures.ts";
 * const tallies = tally([{ "file@1": true, "file@5": true }, { "file@1": false, "file@5": true }]);
 * const table = markdownTable([{ system: "bm25-files", tallies }]);
 * assert.match(table, /\| bm25-files \| 0\.50 \(1\/2\) \| 1\.00 \(2\/2\) \| — \|/);
 * ```
 */
export function markdownTable(summaries: readonly SystemSummary[]): string {
  const head = `| system | ${MEASURES.join(" | ")} |`;
  const rule = `|---|${MEASURES.map(() => "---").join("|")}|`;
  const rows = summaries.map((s) =>
    `| ${s.system} | ${MEASURES.map((measure) => cell(s.tallies[measure])).join(" | ")} |`
  );
  const leftOut = MEASURES.flatMap((measure) => {
    const counts = new Set(
      summaries.filter((s) => s.tallies[measure].n > 0).map((s) => s.tallies[measure].left_out),
    );
    return counts.size === 1 && [...counts][0] > 0 ? [`${measure}: ${[...counts][0]}`] : [];
  });
  const note = leftOut.length > 0
    ? `\nInstances left out (no gold of that kind): ${leftOut.join(", ")}.\n`
    : "";
  return [head, rule, ...rows].join("\n") + "\n" + note;
}

/** Bar colours, by system (others grey). */
const COLORS: Record<string, string> = {
  "llm-context": "#1f77b4",
  "bm25-functions": "#ff7f0e",
  "bm25-files": "#d62728",
};
const FALLBACK_COLORS = ["#2ca02c", "#9467bd", "#8c564b", "#17becf"];

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A grouped bar chart of the means: one group per measure, one bar per system (a measure a
 * system does not have gets no bar), the mean written above each bar, a legend on the right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chartSvg } from "./localize_report.ts";
 * import { tally } from "./localize_measures.ts";
 * const tallies = tally([{ "file@1": true }, { "file@1": false }]);
 * const svg = chartSvg([{ system: "bm25-files", tallies }], "dev set");
 * assert.match(svg, /^<svg /);
 * assert.match(svg, />0\.50</);
 * ```
 */
export function chartSvg(summaries: readonly SystemSummary[], title: string): string {
  const barWidth = 26;
  const gap = 4;
  const groupGap = 30;
  const left = 50;
  const top = 50;
  const plotHeight = 260;
  const groupWidth = summaries.length * (barWidth + gap) - gap;
  const plotWidth = MEASURES.length * (groupWidth + groupGap) + groupGap;
  const legendX = left + plotWidth + 20;
  const width = legendX + 170;
  const height = top + plotHeight + 50;
  const color = (i: number) =>
    COLORS[summaries[i].system] ?? FALLBACK_COLORS[i % FALLBACK_COLORS.length];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const y = top + plotHeight * (1 - tick);
    parts.push(
      `<line x1="${left}" y1="${y}" x2="${left + plotWidth}" y2="${y}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y + 4}" text-anchor="end">${tick.toFixed(2)}</text>`,
    );
  }
  MEASURES.forEach((measure, m) => {
    const x0 = left + groupGap + m * (groupWidth + groupGap);
    summaries.forEach((summary, s) => {
      const value = mean(summary.tallies[measure]);
      if (value === null) return;
      const x = x0 + s * (barWidth + gap);
      const h = Math.max(1, value * plotHeight);
      const y = top + plotHeight - h;
      parts.push(
        `<rect x="${x}" y="${y.toFixed(1)}" width="${barWidth}" height="${h.toFixed(1)}" fill="${
          color(s)
        }"/>`,
        `<text x="${x + barWidth / 2}" y="${
          (y - 4).toFixed(1)
        }" text-anchor="middle" font-size="10">${value.toFixed(2)}</text>`,
      );
    });
    parts.push(
      `<text x="${x0 + groupWidth / 2}" y="${
        top + plotHeight + 18
      }" text-anchor="middle" font-weight="bold">${escapeXml(measure)}</text>`,
    );
  });
  parts.push(
    `<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${
      top + plotHeight
    }" stroke="#333"/>`,
  );
  summaries.forEach((summary, s) => {
    const y = top + s * 20;
    parts.push(
      `<rect x="${legendX}" y="${y}" width="14" height="14" fill="${color(s)}"/>`,
      `<text x="${legendX + 20}" y="${y + 12}">${escapeXml(summary.system)}</text>`,
    );
  });
  return parts.join("\n") + "\n</svg>\n";
}
