/**
 * The Span: a byte-exact region of a file with its lines and columns (contract §1).
 *
 * @module
 */
import { z } from "zod";
import type { Span } from "./span_build.ts";

export { makeSpan, type Span } from "./span_build.ts";

const offset = z.number().int().nonnegative();
const line = z.number().int().positive();

/** zod schema of {@linkcode Span}. */
export const SpanSchema: z.ZodType<Span> = z.object({
  file_path: z.string().min(1).describe("Root-relative path with / separators, or absolute"),
  byte_start: offset.describe("UTF-8 byte offset of the first byte (inclusive)"),
  byte_end: offset.describe("UTF-8 byte offset just past the last byte (exclusive)"),
  start_line: line.describe("1-based line of byte_start"),
  start_col: offset.describe("0-based byte column of byte_start"),
  end_line: line.describe("1-based line of byte_end"),
  end_col: offset.describe("0-based byte column of byte_end"),
  span_id: z.string().regex(/^[0-9a-f]{16}$/).describe("Stable id of the span"),
}).meta({ id: "Span", title: "Span" });
