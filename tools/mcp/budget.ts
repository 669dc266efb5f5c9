/**
 * The output budget: every `tools/call` response the server writes stays under a byte limit.
 * A result list (`data[listKey]` of a query envelope) is cut into pages by an offset; anything
 * still too large (a huge diff, one enormous item) has its largest strings and lists shortened.
 * Both steps leave the envelope valid against the tool's output schema and say what they did in
 * a diagnostic, with the next offset to ask for.
 *
 * @module
 */
import { type CompactAnswer, isCompact, summariseDiagnostics } from "../../schema/compact.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { Envelope } from "../../schema/envelope.ts";

/** What a call answers: an envelope, in full or in compact form. */
export type Answer = Envelope | CompactAnswer;

/** Room kept for the JSON-RPC frame around a result (`jsonrpc`, a long string `id`, newline). */
const FRAME_BYTES = 160;

/** Strings up to this length are never shortened (ids, checksums, timestamps, paths). */
const KEEP_STRING = 96;

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? text.length : encoder.encode(text).length;
}

/** What a `tools/call` response holds besides the envelope. */
export interface ToolResultParts {
  /** The envelope, returned as `structuredContent` and, serialised, as text. */
  envelope: Answer;
  /** Whether the result is the tool's own failure. */
  isError: boolean;
}

/**
 * The MCP `tools/call` result for an envelope: the envelope as `structuredContent` and as
 * compact JSON text (the spec's advice for clients that read only `content`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolResult } from "./budget.ts";
 * import { queryEnvelope } from "@llm/search/schema";
 * const result = toolResult({ envelope: queryEnvelope("llm-x", { count: 0 }, []), isError: false });
 * assert.equal(result.content[0].type, "text");
 * ```
 */
export function toolResult(parts: ToolResultParts): {
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
} {
  const result: {
    content: { type: "text"; text: string }[];
    structuredContent: Record<string, unknown>;
    isError?: boolean;
  } = {
    content: [{ type: "text", text: JSON.stringify(parts.envelope) }],
    structuredContent: parts.envelope as unknown as Record<string, unknown>,
  };
  if (parts.isError) result.isError = true;
  return result;
}

/**
 * Bytes of the whole JSON-RPC response that carries `envelope` as a tool result (structured
 * and as text), frame included.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { responseBytes } from "./budget.ts";
 * import { queryEnvelope } from "@llm/search/schema";
 * assert.ok(responseBytes(queryEnvelope("llm-x", { count: 0 }, []), false) > 0);
 * ```
 */
export function responseBytes(envelope: Answer, isError: boolean): number {
  const json = JSON.stringify(envelope);
  // The text block is the JSON serialised again as a JSON string (quotes and escapes grow it).
  const asText = JSON.stringify(json);
  const fixed = '{"content":[{"type":"text","text":},"structuredContent":}'.length +
    (isError ? ',"isError":true'.length : 0);
  return FRAME_BYTES + fixed + utf8Length(asText) + utf8Length(json);
}

/** How the next page of a cut list is asked for, for the hint in the paging diagnostic. */
export interface PageRequest {
  /** Execution id of the full result, which `get_execution` pages without re-running. */
  executionId: string;
  /** Items a page holds at most (a call's own `limit`); absent: as many as fit the budget. */
  pageSize?: number;
  /**
   * The call that listed the items (its tool, its arguments as sent, and the name of its paging
   * argument): once the items the log holds are shown while the tool found more, the next page
   * is that call again from there.
   */
  rerun?: { tool: string; arguments: Record<string, unknown>; offsetArgument: string };
}

/** A list that can be shown one page at a time. */
export interface Pageable {
  /** Number of items in the full list. */
  total: number;
  /** The envelope showing `count` items from `start`, with `note` added to the diagnostics. */
  view(start: number, count: number, note: Diagnostic | undefined): Answer;
}

/** An envelope cut to the budget. */
export interface FittedEnvelope {
  /** The envelope to return. */
  envelope: Answer;
  /** Offset of the next page, when items remain after this one. */
  nextOffset?: number;
}

/** Name the server's own diagnostics carry. */
const SERVER = "llm-mcp";

function pageNote(
  request: PageRequest,
  listKey: string,
  start: number,
  shown: number,
  total: number,
): Diagnostic | undefined {
  const end = start + shown;
  if (start === 0 && end >= total) return undefined;
  const range = shown === 0 ? "no items" : `items ${start + 1}–${end} of ${total}`;
  const more = end < total;
  const next = `get_execution {"execution_id": "${request.executionId}", "offset": ${end}}`;
  const message = more
    ? `Output budget: showing ${range} of data.${listKey}; ${next} returns the next page of ` +
      "this stored result in milliseconds, without running the query again."
    : `Output budget: showing ${range} of data.${listKey} (the last page).`;
  const details: Record<string, unknown> = { offset: start, shown, total };
  if (more) details.next_offset = end;
  return makeDiagnostic(SERVER, "MCP-QRY-001", message, {
    level: more ? "warning" : "note",
    note: JSON.stringify(details),
    remediation: more ? `Call ${next}, or narrow the query.` : undefined,
  });
}

/** Diagnostics of each code kept by {@linkcode boundDiagnostics}. */
const KEPT_PER_CODE = 3;

/**
 * `envelope` with its diagnostics bounded, so that they never crowd out the results of a full
 * answer: when they serialise to more than `maxBytes`, only the first three of each code are
 * kept, followed by an `MCP-QRY-003` note counting what was left out (the log keeps them all).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { boundDiagnostics } from "./budget.ts";
 * import { makeDiagnostic, queryEnvelope } from "@llm/search/schema";
 * const many = Array.from({ length: 500 }, (_, i) =>
 *   makeDiagnostic("llm-x", "LMA-AST-005", `not parsed: f${i}.c`, { level: "warning" }));
 * const bounded = boundDiagnostics(queryEnvelope("llm-x", { count: 0 }, many), 2000);
 * assert.equal(bounded.diagnostics.length, 4); // three of the code, then a note of the 497 left out
 * ```
 */
export function boundDiagnostics(envelope: Envelope, maxBytes: number): Envelope {
  const diagnostics = envelope.diagnostics;
  if (utf8Length(JSON.stringify(diagnostics)) <= maxBytes) return envelope;
  const seen = new Map<string, number>();
  const kept = diagnostics.filter((diagnostic) => {
    const count = (seen.get(diagnostic.code) ?? 0) + 1;
    seen.set(diagnostic.code, count);
    return count <= KEPT_PER_CODE;
  });
  const left = [...seen].filter(([, count]) => count > KEPT_PER_CODE)
    .map(([code, count]) => `${code} ×${count - KEPT_PER_CODE}`);
  const note = makeDiagnostic(
    SERVER,
    "MCP-QRY-003",
    `${diagnostics.length - kept.length} diagnostics left out of this answer so they do not ` +
      `crowd out the results (${left.join(", ")}); three of each code are shown.`,
    {
      level: "note",
      note: `All of them: \`llm-mcp log show ${envelope.execution_id} --log-dir DIR\`; the ` +
        "compact form counts them by code.",
    },
  );
  return { ...envelope, diagnostics: [...kept, note] } as Envelope;
}

/**
 * Cuts the list of `pageable` to the largest page from `offset` whose response fits `maxBytes`;
 * a page always holds at least one item while items remain (shortened if it alone is too big).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitPage } from "./budget.ts";
 * import { queryEnvelope } from "@llm/search/schema";
 * const items = Array.from({ length: 1000 }, (_, i) => ({ n: i }));
 * const pageable = {
 *   total: items.length,
 *   view: (start: number, count: number) =>
 *     queryEnvelope("llm-x", { count, items: items.slice(start, start + count) }, []),
 * };
 * const request = { executionId: crypto.randomUUID() };
 * assert.ok(fitPage(pageable, "items", 0, 4000, request, false).nextOffset! > 0);
 * ```
 */
export function fitPage(
  pageable: Pageable,
  listKey: string,
  offset: number,
  maxBytes: number,
  request: PageRequest,
  isError: boolean,
): FittedEnvelope {
  const total = pageable.total;
  const start = Math.min(offset, total);
  const remaining = total - start;
  const build = (count: number) =>
    pageable.view(start, count, pageNote(request, listKey, start, count, total));
  const fits = (count: number) => responseBytes(build(count), isError) <= maxBytes;
  // Grow the page by doubling, then bisect: no candidate page is much larger than the budget,
  // however long the full list is. Sizes grow with the count (but for a few digits of the note).
  let low = 0;
  let high = -1; // smallest count known not to fit, -1 while none is known
  for (let probe = 1; probe < remaining; probe *= 2) {
    if (!fits(probe)) {
      high = probe;
      break;
    }
    low = probe;
  }
  if (high < 0) {
    if (fits(remaining)) low = remaining;
    else high = remaining;
  }
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  const chosen = low === 0 && remaining > 0 ? 1 : low;
  const envelope = shrinkToFit(build(chosen), maxBytes, isError);
  const fitted: FittedEnvelope = { envelope };
  if (start + chosen < total) fitted.nextOffset = start + chosen;
  return fitted;
}

type Json = unknown;

interface Candidate {
  holder: Record<string, Json> | Json[];
  key: string | number;
  size: number;
}

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Finds the largest shortenable string or list outside the diagnostics, by serialised size. */
function largest(root: Record<string, Json>): Candidate | undefined {
  let best: Candidate | undefined;
  const consider = (candidate: Candidate) => {
    if (!best || candidate.size > best.size) best = candidate;
  };
  const visit = (holder: Record<string, Json> | Json[], key: string | number): number => {
    const value = (holder as Record<string | number, Json>)[key];
    if (typeof value === "string") {
      const size = value.length + 2;
      if (value.length > 2 * KEEP_STRING) consider({ holder, key, size });
      return size;
    }
    if (Array.isArray(value)) {
      let size = 2;
      for (let i = 0; i < value.length; i++) size += visit(value, i) + 1;
      if (value.length > 1) consider({ holder, key, size });
      return size;
    }
    if (isRecord(value)) {
      let size = 2;
      for (const child of Object.keys(value)) size += child.length + 4 + visit(value, child);
      return size;
    }
    return JSON.stringify(value ?? null).length;
  };
  for (const key of Object.keys(root)) if (key !== "diagnostics") visit(root, key);
  return best;
}

/** Halves the candidate: a string keeps its first half and a marker, a list its first half. */
function halve(target: Candidate): "string" | "list" {
  const holder = target.holder as Record<string | number, Json>;
  const value = holder[target.key];
  if (typeof value === "string") {
    const keep = Math.floor(value.length / 2);
    holder[target.key] = `${value.slice(0, keep)}…[${value.length - keep} chars cut]`;
    return "string";
  }
  (value as Json[]).length = Math.ceil((value as Json[]).length / 2);
  return "list";
}

/**
 * Returns `envelope` unchanged when its response fits `maxBytes`; otherwise a copy whose largest
 * strings and lists were halved until it fits, with an `MCP-QRY-002` warning saying so. A
 * query result cut this way is marked `partial`. If even that cannot fit (the budget is tiny),
 * the data (or a mutation's `result`) is left out; the execution log keeps the full envelope.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { responseBytes, shrinkToFit } from "./budget.ts";
 * import { mutationEnvelope } from "@llm/search/schema";
 * const big = mutationEnvelope("llm-x", { operation_type: "edit", status: "ok", message: "x".repeat(50_000) });
 * assert.ok(responseBytes(shrinkToFit(big, 8000, false), false) <= 8000);
 * ```
 */
export function shrinkToFit<A extends Answer>(envelope: A, maxBytes: number, isError: boolean): A {
  if (responseBytes(envelope, isError) <= maxBytes) return envelope;
  const copy = structuredClone(envelope) as unknown as Record<string, Json>;
  const diagnostics = copy.diagnostics as Json[];
  // A compact answer lists its diagnostics summarised; the warning joins them in that form.
  const entry = (diagnostic: Diagnostic): Json =>
    isCompact(envelope) ? summariseDiagnostics([diagnostic])[0] : diagnostic;
  const isQuery = "data" in copy;
  let strings = 0;
  let lists = 0;
  let dropped = false;
  const warning = () =>
    makeDiagnostic(
      SERVER,
      "MCP-QRY-002",
      `Output budget: the result did not fit in ${maxBytes} bytes; ` +
        (dropped
          ? `its ${isQuery ? "data" : "result"} was left out.`
          : `${strings} long string(s) were shortened and ${lists} list(s) cut.`),
      {
        level: "warning",
        note: `The full result is in the execution log: \`llm-log show ${envelope.execution_id}\`` +
          " in the root (add --log-dir DIR when the server was started with one).",
      },
    );
  const size = () => {
    const withWarning = { ...copy, diagnostics: [...diagnostics, entry(warning())] };
    return responseBytes(withWarning as unknown as Answer, isError);
  };
  while (size() > maxBytes) {
    const target = largest(copy);
    if (target) {
      if (halve(target) === "string") strings++;
      else lists++;
    } else if (diagnostics.length > 1) {
      diagnostics.length = Math.ceil(diagnostics.length / 2);
      lists++;
    } else {
      // Nothing left to shorten: leave the payload out (both schemas allow that).
      if (isQuery) copy.data = { count: 0 };
      else delete copy.result;
      delete copy.workspace;
      diagnostics.length = 0;
      dropped = true;
      break;
    }
  }
  copy.diagnostics = [...diagnostics, entry(warning())];
  if (isQuery) {
    if (copy.status === "ok") copy.status = "partial";
    copy.partial = true;
  }
  return copy as unknown as A;
}
