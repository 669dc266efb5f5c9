/**
 * The edit-plan input that mutating tools take (`--plan FILE`, MCP arguments).
 *
 * @module
 */
import { z } from "zod";
import { normalizeAliases } from "./aliases.ts";
import { field } from "./fields.ts";

/** One span edit: replace `[byte_start, byte_end)` of a file with `new_text`. */
export interface Edit {
  /** File to edit, relative to the root or absolute. */
  file_path: string;
  /** UTF-8 byte offset where the replaced region starts. */
  byte_start: number;
  /** UTF-8 byte offset where it ends (equal to start for an insertion). */
  byte_end: number;
  /** Replacement text (empty for a deletion). */
  new_text: string;
  /** Checksum of the bytes being replaced, `sha256:<hex>` or bare hex. */
  expected_checksum?: string;
  /** Informational line of byte_start, from the tool that produced the span. */
  start_line?: number;
  /** Informational column of byte_start. */
  start_col?: number;
  /** Informational line of byte_end. */
  end_line?: number;
  /** Informational column of byte_end. */
  end_col?: number;
}

/** A set of edits over one or many files, applied all or nothing. */
export interface EditPlan {
  /** Contract version the plan was written for. */
  schema_version?: string;
  /** Id to give the operation (else a fresh one). */
  execution_id?: string;
  /** Whole-file checksums the files must have before the edit, keyed by file_path. */
  file_checksums?: Record<string, string>;
  /** The edits. */
  edits: Edit[];
}

/**
 * The fields of an edit as a caller writes them, each declared once with its meaning: the plan
 * schema below adds its checks, the tools' inline `edits` argument takes them as they are.
 */
const EDIT_FIELDS = {
  file_path: field(z.string().describe("File to edit, relative to the root (alias: file)"), {
    path: true,
  }),
  byte_start: z.number().int().describe("UTF-8 byte offset where the replaced bytes start"),
  byte_end: z.number().int().describe("UTF-8 byte offset where they end (= start to insert)"),
  new_text: z.string().describe(
    "Replacement text, empty to delete (aliases: replacement, new_content)",
  ),
  expected_checksum: z.string().describe("sha256: of the replaced bytes (alias: checksum_before)"),
};

const CHECKSUM = /^(sha256:)?[0-9a-fA-F]{64}$/;
const CHECKSUM_MESSAGE = "expected sha256:<64 hex digits> or 64 bare hex digits";
const inputChecksum = z.string().regex(CHECKSUM, CHECKSUM_MESSAGE);
const offset = z.number().int().nonnegative();

/** zod schema of {@linkcode Edit} with canonical field names. */
export const EditSchema: z.ZodType<Edit> = z.object({
  file_path: EDIT_FIELDS.file_path.min(1),
  byte_start: EDIT_FIELDS.byte_start.nonnegative(),
  byte_end: EDIT_FIELDS.byte_end.nonnegative(),
  new_text: EDIT_FIELDS.new_text,
  expected_checksum: EDIT_FIELDS.expected_checksum.regex(CHECKSUM, CHECKSUM_MESSAGE).optional(),
  start_line: z.number().int().positive().optional(),
  start_col: offset.optional(),
  end_line: z.number().int().positive().optional(),
  end_col: offset.optional(),
}).meta({ id: "Edit" });

/**
 * An edit as a tool argument (`edits` inline): the fields of {@linkcode EditSchema}, each
 * optional and without its checks, legacy names let through. The plan parser
 * ({@linkcode parseEditPlan}) then checks the whole plan and names every violation's JSON path.
 */
export const EditArgumentSchema: z.ZodType<Partial<Edit> & Record<string, unknown>> = z
  .looseObject(EDIT_FIELDS).partial();

/** zod schema of {@linkcode EditPlan} with canonical field names (what the JSON Schema shows). */
export const EditPlanSchema: z.ZodType<EditPlan> = z.object({
  schema_version: z.string().optional(),
  execution_id: z.string().optional(),
  file_checksums: z.record(z.string(), inputChecksum).optional(),
  edits: z.array(EditSchema).min(1),
}).meta({ id: "EditPlan", title: "EditPlan" });

/**
 * Parses an edit plan written with canonical or legacy field names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseEditPlan } from "@llm/search/schema";
 * const result = parseEditPlan({
 *   edits: [{ file: "a.txt", byte_start: 0, byte_end: 1, replacement: "b" }],
 * });
 * assert.ok(result.success);
 * assert.equal(result.data.edits[0].file_path, "a.txt");
 * ```
 */
export function parseEditPlan(input: unknown): z.ZodSafeParseResult<EditPlan> {
  return EditPlanSchema.safeParse(normalizeAliases(input));
}
