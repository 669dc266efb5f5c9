/**
 * From the input of `llm-write` (flags or MCP arguments) to one request: the files to write
 * (from `path` + `content`, standard input, inline `files` or a plan file), or an undo. A plan
 * that is not JSON is `LFW-ARG-010` with its position; a schema violation `LFW-ARG-002` with
 * its JSON path.
 *
 * @module
 */
import { normalizeChecksum } from "../../schema/checksum.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { parseWritePlan, type WritePlan } from "../../schema/write.ts";
import { readInputBytes } from "../../core/input_file.ts";
import { utf8Input, wellFormedInput } from "../../core/text_input.ts";
import { decodeUtf8 } from "../../core/utf8.ts";
import { jsonPath, parseJsonText } from "../../core/transaction/plan_json.ts";

/**
 * A request to `llm-write`, after the input was checked. `bytes`, when present, is the exact
 * content of the plan's one file, read from standard input (not necessarily UTF-8: the plan's
 * `content` is then only its text for display); it is written as it is.
 */
export type WriteRequest =
  | { kind: "write"; plan: WritePlan; bytes?: Uint8Array }
  | { kind: "undo"; id: string };

/** Where a plan's (or a file's) text comes from when the input does not hold it. */
export interface WriteSource {
  /**
   * Reads standard input to its end as UTF-8 text (a plan); absent when the host owns standard
   * input (MCP).
   */
  readStdin?: () => Promise<string>;
  /** Reads standard input to its end as bytes (a file's content, written exactly). */
  readStdinBytes?: () => Promise<Uint8Array>;
  /** Directory a relative plan path starts from. */
  cwd: string;
}

/**
 * The fields of the input a request is built from: the tool's input (`input.ts`) but its run
 * options. Spelled out because it is public API; `writeTool` passes its parsed input here, so
 * the two cannot drift apart without a type error.
 */
export interface WriteRequestInput {
  /** File to create. */
  path?: string;
  /** Its content (else standard input). */
  content?: string;
  /** Several files inline (array or JSON text). */
  files?: unknown[] | string;
  /** Plan file or `-`. */
  plan?: string;
  /** Replace an existing file at `path`. */
  overwrite: boolean;
  /** Checksum the file at `path` must have. */
  expected_checksum?: string;
  /** Write nothing. */
  validate_only: boolean;
  /** Undo this execution id. */
  undo?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function argError(message: string, remediation?: string): ToolError {
  return new ToolError("LFW-ARG-002", message, remediation ? { remediation } : {});
}

const MODES =
  "Give path with content (or content on standard input), files, plan FILE|-, or undo ID.";

/** Checks a raw plan against the schema, naming each violation's JSON path. */
function checkPlan(raw: unknown, source: string): WritePlan {
  const parsed = parseWritePlan(raw);
  if (!parsed.success) {
    const violations = parsed.error.issues.map((issue) =>
      `${jsonPath(issue.path)}: ${issue.message}`
    );
    throw new ToolError(
      "LFW-ARG-002",
      `${source} does not match the write-plan schema: ${violations[0]}` +
        (violations.length > 1 ? ` (and ${violations.length - 1} more)` : ""),
      { note: violations.join("\n") },
    );
  }
  const plan = parsed.data;
  for (const [index, file] of plan.files.entries()) {
    wellFormedInput("LFW", file.content, `${source}: $.files[${index}].content`);
  }
  if (plan.execution_id !== undefined) {
    if (!UUID.test(plan.execution_id)) {
      throw argError(`${source}: $.execution_id: expected a UUID, got ${plan.execution_id}`);
    }
    plan.execution_id = plan.execution_id.toLowerCase();
  }
  for (const file of plan.files) {
    if (file.expected_checksum !== undefined) {
      file.expected_checksum = normalizeChecksum(file.expected_checksum) ?? file.expected_checksum;
    }
  }
  return plan;
}

function noStdin(what: string): ToolError {
  return argError(
    `${what} reads standard input, which this host does not offer`,
    "Pass the content (or the files) inline instead.",
  );
}

async function stdinText(source: WriteSource, what: string): Promise<string> {
  if (!source.readStdin) throw noStdin(what);
  return await source.readStdin();
}

/** Standard input's exact bytes (as `cat > FILE` writes them), or its text encoded. */
async function stdinBytes(source: WriteSource, what: string): Promise<Uint8Array> {
  if (source.readStdinBytes) return await source.readStdinBytes();
  return new TextEncoder().encode(await stdinText(source, what));
}

/** Names of the given fields among `fields`, as flags. */
function given(input: WriteRequestInput, fields: (keyof WriteRequestInput)[]): string[] {
  return fields.filter((name) => input[name] !== undefined && input[name] !== false)
    .map((name) => `--${String(name).replaceAll("_", "-")}`);
}

function refuse(mode: string, input: WriteRequestInput, fields: (keyof WriteRequestInput)[]): void {
  const extra = given(input, fields);
  if (extra.length) throw argError(`${extra.join(", ")} cannot be combined with ${mode}`, MODES);
}

/** The plan of the `files` argument, or of the plan file (or standard input). */
async function planOf(input: WriteRequestInput, source: WriteSource): Promise<WritePlan> {
  if (input.files !== undefined) {
    refuse("--files", input, ["plan"]);
    const raw = typeof input.files === "string"
      ? parseJsonText(input.files, "--files", "LFW-ARG-010")
      : input.files;
    return checkPlan({ files: raw }, "the files argument");
  }
  const label = input.plan === "-" ? "the plan on standard input" : `the plan ${input.plan}`;
  const text = input.plan === "-"
    ? await stdinText(source, "--plan -")
    : utf8Input("LFW", readInputBytes("LFW", source.cwd, input.plan!, "plan file"), label);
  return checkPlan(parseJsonText(text, label, "LFW-ARG-010"), label);
}

/**
 * Checks the input and builds the request, reading the plan (or the content on standard
 * input) when the input names no text of its own.
 *
 * @example Build the request of one file
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildWriteRequest } from "./request.ts";
 * const request = await buildWriteRequest(
 *   { path: "a.py", content: "x = 1\n", overwrite: false, validate_only: false },
 *   { cwd: Deno.cwd() },
 * );
 * assert.deepEqual(request, {
 *   kind: "write",
 *   plan: { files: [{ file_path: "a.py", content: "x = 1\n" }] },
 * });
 * ```
 */
export async function buildWriteRequest(
  input: WriteRequestInput,
  source: WriteSource,
): Promise<WriteRequest> {
  if (input.undo !== undefined) {
    refuse("--undo", input, ["path", "content", "files", "plan", "overwrite", "validate_only"]);
    return { kind: "undo", id: input.undo };
  }
  if (input.files !== undefined || input.plan !== undefined) {
    refuse(input.files !== undefined ? "--files" : "--plan", input, [
      "path",
      "content",
      "overwrite",
      "expected_checksum",
    ]);
    return { kind: "write", plan: await planOf(input, source) };
  }
  if (input.path === undefined) throw argError("nothing to write", MODES);
  // Content on standard input is a file's bytes, kept exactly (the gates judge their text).
  const bytes = input.content === undefined
    ? await stdinBytes(source, "a path without content")
    : undefined;
  const content = input.content ?? decodeUtf8(bytes!).text;
  const raw: Record<string, unknown> = { file_path: input.path, content };
  if (input.overwrite) raw.overwrite = true;
  if (input.expected_checksum !== undefined) raw.expected_checksum = input.expected_checksum;
  const plan = checkPlan({ files: [raw] }, "the input");
  return bytes ? { kind: "write", plan, bytes } : { kind: "write", plan };
}
