/**
 * From the tool's input (flags or MCP arguments) to one request: an edit plan, a span edit, a
 * guarded replacement, a recovery or an undo. Reads and parses the plan, reporting bad JSON
 * with its position (`LMT-ARG-010`) and every schema violation with its JSON path
 * (`LMT-ARG-002`).
 *
 * @module
 */
import type { z } from "zod";
import { type Checksum, normalizeChecksum } from "../../schema/checksum.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { readInputBytes } from "../../core/input_file.ts";
import { utf8Input, wellFormedInput } from "../../core/text_input.ts";
import { jsonPath, parseJsonText } from "../../core/transaction/plan_json.ts";
import type { EditPlan } from "../../schema/edit_plan.ts";

/** A request to `llm-transform`, after the input was checked. */
export type TransformRequest =
  | PlanRequest
  | ReplaceRequest
  | { kind: "recover" }
  | { kind: "undo"; id: string };

/** Span edits: a plan, or the `--file --span --with` short form. */
export interface PlanRequest {
  /** `plan` for a plan, `span` for the short form. */
  kind: "plan" | "span";
  /** The edits. */
  plan: EditPlan;
  /** Short form only: checksum of the file or of the span. */
  expect?: Checksum;
}

/** A guarded replacement. */
export interface ReplaceRequest {
  /** Discriminator. */
  kind: "replace";
  /** The file. */
  file: string;
  /** Exact text to find. */
  old: string;
  /** Text to put in its place. */
  new: string;
  /** Occurrences that must exist (default 1); `undefined` with `all`. */
  count?: number;
  /** Replace every occurrence. */
  all: boolean;
  /** Checksum the whole file must have. */
  expect?: Checksum;
}

/**
 * The fields of the input a request is built from: the tool's input (`input.ts`) but its run
 * options. Spelled out because it is public API; `transformTool` passes its parsed input here,
 * so the two cannot drift apart without a type error.
 */
export interface RequestInput {
  /** Plan file or `-`. */
  plan?: string;
  /** Inline edits (array or JSON text). */
  edits?: unknown[] | string;
  /** Inline file checksums (object or JSON text). */
  file_checksums?: Record<string, string> | string;
  /** Short-form file. */
  file?: string;
  /** `START:END`. */
  span?: string;
  /** New text of a span edit. */
  with?: string;
  /** Text to replace. */
  old?: string;
  /** Replacement text. */
  new?: string;
  /** Occurrences required. */
  count?: number;
  /** Replace all occurrences. */
  all: boolean;
  /** Expected checksum. */
  expect?: string;
  /** Recover. */
  recover: boolean;
  /** Undo this execution id. */
  undo?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function argError(message: string, remediation?: string): ToolError {
  return new ToolError("LMT-ARG-002", message, remediation ? { remediation } : {});
}

/** `LMT-ARG-002` naming the JSON path of every violation. */
function schemaError(source: string, error: z.ZodError): ToolError {
  const violations = error.issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
  return new ToolError(
    "LMT-ARG-002",
    `${source} does not match the edit-plan schema: ${violations[0]}` +
      (violations.length > 1 ? ` (and ${violations.length - 1} more)` : ""),
    {
      note: violations.join("\n"),
      remediation: "Fix each field named; legacy names (file, replacement, …) are accepted too.",
    },
  );
}

/**
 * Validates a raw plan: the schema, and an execution id that can name a journal. The plan's
 * schema (zod) is loaded here, on first use: a replacement or a span edit given by flags never
 * needs it, and loading zod costs a command more than its edit.
 */
export async function checkPlan(raw: unknown, source: string): Promise<EditPlan> {
  const { parseEditPlan } = await import("../../schema/edit_plan.ts");
  const parsed = parseEditPlan(raw);
  if (!parsed.success) throw schemaError(source, parsed.error);
  const plan = parsed.data;
  if (plan.execution_id !== undefined && !UUID.test(plan.execution_id)) {
    throw new ToolError(
      "LMT-ARG-002",
      `${source} does not match the edit-plan schema: $.execution_id: expected a UUID`,
      { note: `$.execution_id: expected a UUID, got ${JSON.stringify(plan.execution_id)}` },
    );
  }
  if (plan.execution_id) plan.execution_id = plan.execution_id.toLowerCase();
  for (const [index, edit] of plan.edits.entries()) {
    wellFormedInput("LMT", edit.new_text, `${source}: $.edits[${index}].new_text`);
  }
  return plan;
}

function checksumOf(text: string, flag: string): Checksum {
  const checksum = normalizeChecksum(text);
  if (!checksum) {
    throw argError(`${flag} takes sha256:<64 hex digits>, got '${text}'`);
  }
  return checksum;
}

/** Names of the given fields among `fields`, as flags. */
function given(input: RequestInput, fields: (keyof RequestInput)[]): string[] {
  return fields.filter((field) => {
    const value = input[field];
    return value !== undefined && value !== false;
  }).map((field) => `--${field.replaceAll("_", "-")}`);
}

function refuse(mode: string, input: RequestInput, fields: (keyof RequestInput)[]): void {
  const extra = given(input, fields);
  if (extra.length) {
    throw argError(
      `${extra.join(", ")} cannot be combined with ${mode}`,
      "Give one of: --plan/--edits, --file with --span and --with, --file with --old and " +
        "--new, --recover, or --undo ID.",
    );
  }
}

/**
 * The request fields, in the input schema's order: every input field but the run options
 * (`root`, `dry_run`, `validate`, `allow_build_scripts`). Spelled out so that building a request needs no zod; a test
 * holds it to the fields of `TransformInput`.
 */
export const REQUEST_FIELDS: readonly (keyof RequestInput)[] = [
  "plan",
  "edits",
  "file_checksums",
  "file",
  "span",
  "with",
  "old",
  "new",
  "count",
  "all",
  "expect",
  "recover",
  "undo",
];

function except(...fields: (keyof RequestInput)[]): (keyof RequestInput)[] {
  return REQUEST_FIELDS.filter((field) => !fields.includes(field));
}

/** Where a plan's text comes from: a file, or standard input when the host allows it. */
export interface PlanSource {
  /** Reads standard input to its end; absent when the host owns standard input (MCP). */
  readStdin?: () => Promise<string>;
  /** Directory a relative plan path starts from. */
  cwd: string;
}

async function readPlanText(plan: string, source: PlanSource): Promise<string> {
  if (plan === "-") {
    if (!source.readStdin) {
      throw argError(
        "--plan - reads standard input, which this host does not offer",
        "Pass the edits inline (edits, file_checksums) instead.",
      );
    }
    return await source.readStdin();
  }
  return utf8Input("LMT", readInputBytes("LMT", source.cwd, plan, "plan file"), `the plan ${plan}`);
}

function inlineValue(value: unknown, field: string): unknown {
  return typeof value === "string"
    ? parseJsonText(value, `--${field.replaceAll("_", "-")}`)
    : value;
}

/**
 * Checks the input and builds the request, reading the plan when one is named.
 *
 * @example Build a replace request
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRequest } from "@llm/search/transform";
 * const request = await buildRequest(
 *   { file: "a.txt", old: "x", new: "y", all: false, recover: false },
 *   { cwd: Deno.cwd() },
 * );
 * assert.deepEqual(request, { kind: "replace", file: "a.txt", old: "x", new: "y", all: false, count: 1 });
 * ```
 */
export async function buildRequest(
  input: RequestInput,
  source: PlanSource,
): Promise<TransformRequest> {
  if (input.recover) {
    refuse("--recover", input, except("recover"));
    return { kind: "recover" };
  }
  if (input.undo !== undefined) {
    refuse("--undo", input, except("undo"));
    return { kind: "undo", id: input.undo };
  }
  if (input.plan !== undefined || input.edits !== undefined) {
    refuse(
      input.plan !== undefined ? "--plan" : "--edits",
      input,
      except("plan", "edits", "file_checksums"),
    );
    if (input.plan !== undefined && input.edits !== undefined) {
      throw argError("--plan and --edits cannot be combined");
    }
    if (input.plan !== undefined) {
      refuse("--plan", input, ["file_checksums"]);
      const label = input.plan === "-" ? "the plan on standard input" : `the plan ${input.plan}`;
      const text = await readPlanText(input.plan, source);
      return { kind: "plan", plan: await checkPlan(parseJsonText(text, label), label) };
    }
    const raw: Record<string, unknown> = { edits: inlineValue(input.edits, "edits") };
    if (input.file_checksums !== undefined) {
      raw.file_checksums = inlineValue(input.file_checksums, "file_checksums");
    }
    return { kind: "plan", plan: await checkPlan(raw, "the inline plan") };
  }
  if (input.file_checksums !== undefined) {
    throw argError("--file-checksums needs --edits (in a plan file, put it in the plan)");
  }
  if (input.file === undefined) {
    throw argError(
      "nothing to do",
      "Give --plan FILE, --file P --span START:END --with TEXT, --file P --old TEXT --new TEXT, " +
        "--recover, or --undo ID.",
    );
  }
  if (input.span !== undefined) {
    refuse("--span", input, ["old", "new", "count", "all"]);
    const found = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(input.span);
    if (!found) throw argError(`--span takes START:END byte offsets, got '${input.span}'`);
    if (input.with === undefined) throw argError("--span needs --with TEXT (empty to delete)");
    const request: PlanRequest = {
      kind: "span",
      plan: {
        edits: [{
          file_path: input.file,
          byte_start: Number(found[1]),
          byte_end: Number(found[2]),
          new_text: wellFormedInput("LMT", input.with, "--with"),
        }],
      },
    };
    if (input.expect !== undefined) request.expect = checksumOf(input.expect, "--expect");
    return request;
  }
  if (input.old !== undefined) {
    refuse("--old", input, ["with"]);
    if (input.old === "") throw argError("--old must not be empty");
    if (input.new === undefined) throw argError("--old needs --new TEXT (empty to delete)");
    if (input.all && input.count !== undefined) {
      throw argError("--all and --count cannot be combined");
    }
    const request: ReplaceRequest = {
      kind: "replace",
      file: input.file,
      old: wellFormedInput("LMT", input.old, "--old"),
      new: wellFormedInput("LMT", input.new, "--new"),
      all: input.all,
    };
    if (!input.all) request.count = input.count ?? 1;
    if (input.expect !== undefined) request.expect = checksumOf(input.expect, "--expect");
    return request;
  }
  throw argError(
    "--file needs --span START:END with --with TEXT, or --old TEXT with --new TEXT",
  );
}
