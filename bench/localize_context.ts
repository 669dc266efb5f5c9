/**
 * How the localization bench (`localize_bench.ts`) calls the system under test, `llm-context`
 * (not written yet): everything about the call is here, in {@linkcode indexTree} and
 * {@linkcode runContext}, so that it can be adjusted in one place.
 *
 * The call, in the instance's tree (its working directory), as a user runs it:
 *
 * 1. `deno run -A tools/symbols/main.ts index`, after removing the tree's `.llm/` so that the
 *    index is built cold (timed: wall including Deno's start);
 * 2. `deno run -A tools/context/main.ts --budget N --task-file F --format json` for each budget
 *    (timed the same way), `F` being the problem statement written outside the tree (so that it
 *    is not a file of the tree). Its answer is the contract's query envelope, of which the bench
 *    reads `data.files[].file_path` (ranked files), `data.blocks[]` (ranked blocks, each with
 *    `span` {file_path, byte_start, byte_end, start_line, end_line, end_col?} and `text`) and
 *    `data.tokens_used`.
 *
 * The bench counts a block's tokens itself (`ceil(chars / 4)` of its `text`) and keeps, in the
 * answered order, the blocks that fit the budget, so an answer over its budget is cut, not
 * trusted.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONFIG, REPO, runOnce } from "./measure.ts";
import { textTokens } from "./localize_bm25.ts";

/** The entrypoint of the system under test, relative to the repository. */
export const CONTEXT_ENTRY = "tools/context/main.ts";

/** The entrypoint that builds the symbol index, relative to the repository. */
export const INDEX_ENTRY = "tools/symbols/main.ts";

/**
 * Whether the system under test (`entry`, absolute or relative to the repository) exists in
 * this checkout (else the bench runs the baselines only, and says so).
 */
export function contextAvailable(entry: string = CONTEXT_ENTRY): boolean {
  return existsSync(resolve(REPO, entry));
}

/** One block of an answer, as the measures and the packing need it. */
export interface AnswerBlock {
  /** Root-relative path, `/`-separated. */
  file_path: string;
  /** 1-based first line. */
  start_line: number;
  /** 1-based line of the span's end. */
  end_line: number;
  /** 0-based byte column of the span's end, when the answer gives it. */
  end_col?: number;
  /** UTF-8 byte offset of the span's start. */
  byte_start: number;
  /** UTF-8 byte offset just past the span's end. */
  byte_end: number;
  /** What the block costs: `ceil(chars / 4)` of its text. */
  tokens: number;
}

/** One timed run of a command. */
export interface TimedRun {
  /** Wall time, Deno's start included, in milliseconds. */
  ms: number;
  /** User plus system CPU time, when GNU time was there. */
  cpu_ms?: number;
  /** Peak resident set size in MB, when GNU time was there. */
  rss_mb?: number;
  /** Exit code. */
  code: number;
}

/** The answer of one `llm-context` run. */
export interface ContextAnswer extends TimedRun {
  /** Ranked files. */
  files: string[];
  /** Ranked blocks. */
  blocks: AnswerBlock[];
  /** `data.tokens_used` as the system reported it. */
  tokens_used?: number;
  /** Why the answer could not be read, when it could not. */
  error?: string;
}

function denoArgs(entry: string, args: string[]): string[] {
  return ["run", "-A", "--quiet", `--config=${CONFIG}`, resolve(REPO, entry), ...args];
}

/** A root-relative path as the gold names files: `/`-separated, no leading `./`. */
function relativePath(path: string, tree: string): string {
  const normal = path.replaceAll("\\", "/");
  if (normal.startsWith(tree + "/")) return normal.slice(tree.length + 1);
  return normal.replace(/^\.\//, "");
}

/**
 * Builds the symbol index of `tree` cold (its `.llm/` removed first) and times it. `entry` is
 * the entrypoint, absolute or relative to the repository.
 */
export async function indexTree(tree: string, entry: string = INDEX_ENTRY): Promise<TimedRun> {
  await Deno.remove(join(tree, ".llm"), { recursive: true }).catch(() => {});
  const run = await runOnce("deno", denoArgs(entry, ["index"]), tree);
  return { ms: run.ms, cpu_ms: run.cpuMs, rss_mb: run.rssMb, code: run.code };
}

interface EnvelopeBlock {
  span?: {
    file_path?: string;
    byte_start?: number;
    byte_end?: number;
    start_line?: number;
    end_line?: number;
    end_col?: number;
  };
  text?: string;
}

/** What an answer holds, read from the envelope. */
export type ReadAnswer = Pick<ContextAnswer, "files" | "blocks" | "tokens_used" | "error">;

/**
 * Reads `llm-context`'s JSON envelope (its standard output): the ranked files, the ranked blocks
 * (paths made relative to `tree`, tokens counted from each block's `text`) and `tokens_used`.
 * An output that is not such an envelope gives empty lists and `error`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAnswer } from "./localize_context.ts";
 * const envelope = {
 *   status: "ok",
 *   data: {
 *     files: [{ file_path: "a.py" }],
 *     blocks: [{
 *       span: { file_path: "a.py", byte_start: 0, byte_end: 8, start_line: 1, end_line: 1 },
 *       text: "def f():",
 *     }],
 *     tokens_used: 2,
 *   },
 * };
 * const answer = readAnswer(JSON.stringify(envelope), "/tree");
 * assert.deepEqual(answer.files, ["a.py"]);
 * assert.equal(answer.blocks[0].tokens, 2);
 * assert.equal(readAnswer("oops", "/tree").error?.startsWith("not a JSON envelope"), true);
 * ```
 */
export function readAnswer(stdout: string, tree: string): ReadAnswer {
  let envelope: { data?: Record<string, unknown> } | undefined;
  try {
    envelope = JSON.parse(stdout);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { files: [], blocks: [], error: `not a JSON envelope: ${reason}` };
  }
  const data = envelope?.data;
  if (!data || !Array.isArray(data.files) || !Array.isArray(data.blocks)) {
    return { files: [], blocks: [], error: "the envelope has no data.files and data.blocks" };
  }
  const files = (data.files as { file_path?: string }[])
    .map((file) => relativePath(String(file.file_path ?? ""), tree));
  const blocks = (data.blocks as EnvelopeBlock[]).map((block): AnswerBlock => {
    const span = block.span ?? {};
    return {
      file_path: relativePath(String(span.file_path ?? ""), tree),
      start_line: Number(span.start_line ?? 0),
      end_line: Number(span.end_line ?? 0),
      ...(typeof span.end_col === "number" ? { end_col: span.end_col } : {}),
      byte_start: Number(span.byte_start ?? 0),
      byte_end: Number(span.byte_end ?? 0),
      tokens: textTokens(block.text ?? ""),
    };
  });
  return typeof data.tokens_used === "number"
    ? { files, blocks, tokens_used: data.tokens_used }
    : { files, blocks };
}

/**
 * Runs `llm-context` in `tree` on the task in `taskFile` with a budget of `budget` tokens, and
 * reads its answer ({@linkcode readAnswer}). `entry` is the entrypoint, absolute or relative
 * to the repository (tests give a stand-in).
 */
export async function runContext(
  tree: string,
  taskFile: string,
  budget: number,
  entry: string = CONTEXT_ENTRY,
): Promise<ContextAnswer> {
  const args = ["--budget", String(budget), "--task-file", taskFile, "--format", "json"];
  const run = await runOnce("deno", denoArgs(entry, args), tree);
  const answer = readAnswer(new TextDecoder().decode(run.stdout), tree);
  const error = answer.error && `exit ${run.code}: ${answer.error}`;
  return {
    ms: run.ms,
    ...(run.cpuMs === undefined ? {} : { cpu_ms: run.cpuMs }),
    ...(run.rssMb === undefined ? {} : { rss_mb: run.rssMb }),
    code: run.code,
    ...answer,
    ...(error ? { error } : {}),
  };
}
