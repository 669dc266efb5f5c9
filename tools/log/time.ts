/**
 * The times `llm-log --since`/`--until` take: an ISO 8601 date or time, or an age.
 *
 * @module
 */

const RELATIVE_TIME = /^(\d+)([smhd])$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A point in time as `--since`/`--until` take it: an ISO 8601 date or time, or an age such as
 * `30m`, `2h`, `7d` (that long before `now`); `undefined` when it is neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTime } from "./time.ts";
 * const now = new Date("2026-01-01T12:00:00Z");
 * assert.equal(parseTime("2h", now)?.toISOString(), "2026-01-01T10:00:00.000Z");
 * ```
 */
export function parseTime(text: string, now: Date = new Date()): Date | undefined {
  const age = RELATIVE_TIME.exec(text.trim());
  if (age) return new Date(now.getTime() - Number(age[1]) * UNIT_MS[age[2]]);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
}
