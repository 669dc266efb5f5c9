/**
 * What an agent pays for an answer of llm-mcp, in bytes and tokens, on the Linux 6.1 tree: the
 * compact default and `detail: "full"` (the old default) beside ripgrep's `--json`, for a
 * search (`[A-Z]+_SUSPEND`, every match) and for the C function definitions of `kernel/`; then
 * the cost of paging a cut answer through `get_execution` against running the query again.
 * Every page is fetched, so the figures cover the whole result and the totals are checked.
 * Bytes are those of the text block the model reads (UTF-8); "response" adds the structured
 * copy. Run: `deno run -A bench/economy_bench.ts [--runs N]`; exits 1 when a target is missed.
 *
 * @module
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CompactEnvelope } from "../schema/compact.ts";
import { LINUX, prepare } from "./prepare.ts";
import { CONFIG, median, ms, REPO, runOnce, runsOption } from "./measure.ts";

/** Target: compact search bytes per match over ripgrep `--json` bytes per match. */
const SEARCH_RATIO = 0.5;
/** Target: compact bytes per C function definition. */
const DEFINITION_BYTES = 120;
/** Target: tokens (chars/4) of any default response. */
const RESPONSE_TOKENS = 20_000;

const PATTERN = "[A-Z]+_SUSPEND";
const SEARCH = { patterns: [PATTERN], limit: 0 };
const DEFINITIONS = { kind: ["function"], language: "c", paths: ["kernel"], limit: 0 };

interface CallResult {
  content: { type: string; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

interface Answer {
  /** Text block bytes. */
  textBytes: number;
  /** Whole result bytes (text and structured). */
  responseBytes: number;
  /** Items shown. */
  items: number;
  /** The structured content. */
  envelope: Record<string, unknown>;
}

const encoder = new TextEncoder();

function answerOf(result: CallResult, itemsOf: (envelope: Record<string, unknown>) => number) {
  if (result.isError) throw new Error(JSON.stringify(result.structuredContent).slice(0, 2000));
  const text = result.content[0].text;
  return {
    textBytes: encoder.encode(text).length,
    responseBytes: encoder.encode(JSON.stringify(result)).length,
    items: itemsOf(result.structuredContent),
    envelope: result.structuredContent,
  };
}

/** Rows of a compact envelope, or items of `data.matches` of a full one. */
function itemsOf(envelope: Record<string, unknown>): number {
  const data = envelope.data as Record<string, unknown>;
  if (Array.isArray(data.by_file)) {
    return (data.by_file as { rows: unknown[] }[]).reduce((sum, file) => sum + file.rows.length, 0);
  }
  return Array.isArray(data.matches) ? data.matches.length : 0;
}

/** The envelope inside a `get_execution` answer. */
function innerOf(envelope: Record<string, unknown>): Record<string, unknown> {
  const data = envelope.data as { execution: { envelope: Record<string, unknown> } };
  return data.execution.envelope;
}

interface Paged {
  /** Every page's answer, the first call's first. */
  pages: Answer[];
  /** ms of each get_execution page call. */
  pageMs: number[];
  /** ms of the first call (the query run). */
  queryMs: number;
}

/**
 * Calls `tool`, then follows `next_page` (compact) or the offsets (full) to the end, or only
 * the first page when `follow` is false.
 */
async function allPages(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  detail: "compact" | "full",
  follow = true,
): Promise<Paged> {
  const call = (name: string, a: Record<string, unknown>) =>
    client.callTool({ name, arguments: a }, undefined, { timeout: 600_000 }) as Promise<
      CallResult
    >;
  let started = performance.now();
  const first = answerOf(await call(tool, { ...args, detail }), itemsOf);
  const queryMs = performance.now() - started;
  const pages = [first];
  const pageMs: number[] = [];
  const executionId = first.envelope.execution_id as string;
  let shown = first.items;
  let next = follow ? nextOffset(first.envelope, shown) : undefined;
  while (next !== undefined) {
    started = performance.now();
    const result = await call("get_execution", { execution_id: executionId, offset: next, detail });
    pageMs.push(performance.now() - started);
    const page = answerOf(result, (envelope) => itemsOf(innerOf(envelope)));
    if (page.items === 0) throw new Error("an empty page before the end");
    pages.push(page);
    shown += page.items;
    next = nextOffset(innerOf(page.envelope), shown);
  }
  return { pages, pageMs, queryMs };
}

/** The offset of the next page: `next_page` of a compact answer, else items shown so far. */
function nextOffset(envelope: Record<string, unknown>, shown: number): number | undefined {
  const compact = envelope as unknown as CompactEnvelope;
  if (compact.form === "compact") {
    const offset = compact.next_page?.arguments.offset;
    return typeof offset === "number" ? offset : undefined;
  }
  const data = envelope.data as { match_count: number };
  return shown < data.match_count ? shown : undefined;
}

function matchCount(envelope: Record<string, unknown>): number {
  return (envelope.data as { match_count: number }).match_count;
}

interface Cost {
  bytesPerItem: number;
  responseBytesPerItem: number;
  items: number;
  pages: number;
  maxTokens: number;
}

function costOf(paged: Paged): Cost {
  const items = paged.pages.reduce((sum, page) => sum + page.items, 0);
  const text = paged.pages.reduce((sum, page) => sum + page.textBytes, 0);
  const response = paged.pages.reduce((sum, page) => sum + page.responseBytes, 0);
  return {
    bytesPerItem: text / items,
    responseBytesPerItem: response / items,
    items,
    pages: paged.pages.length,
    maxTokens: Math.max(...paged.pages.map((page) => page.responseBytes / 4)),
  };
}

/** ripgrep's `--json` output for the pattern: bytes over matches (submatches). */
async function ripgrepJson(): Promise<{ bytesPerMatch: number; matches: number }> {
  const output = await new Deno.Command("rg", { args: ["--json", PATTERN], cwd: LINUX }).output();
  let matches = 0;
  for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
    if (!line.startsWith('{"type":"match"')) continue;
    matches += (JSON.parse(line) as { data: { submatches: unknown[] } }).data.submatches.length;
  }
  return { bytesPerMatch: output.stdout.length / matches, matches };
}

async function connect(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: "deno",
    args: ["run", "--quiet", `--config=${CONFIG}`, "-R", join(REPO, "tools/mcp/main.ts")],
    cwd: LINUX,
    stderr: "inherit",
  });
  const client = new Client({ name: "llm-economy-bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function row(name: string, cost: Cost, peer?: number): string {
  const ratio = peer ? ` (${(cost.bytesPerItem / peer).toFixed(2)}× rg)` : "";
  return `| ${name} | ${cost.items} | ${cost.pages} | ${cost.bytesPerItem.toFixed(1)}${ratio} | ` +
    `${cost.responseBytesPerItem.toFixed(1)} | ${Math.round(cost.maxTokens)} |`;
}

async function main(): Promise<void> {
  const runs = runsOption(5);
  await prepare();
  const client = await connect();
  let failed = false;
  try {
    const rg = await ripgrepJson();
    const search = await allPages(client, "search", SEARCH, "compact");
    const searchFull = await allPages(client, "search", SEARCH, "full");
    const definitions = await allPages(client, "ast_search", DEFINITIONS, "compact");
    // One page of the full form: the whole envelope of 15k bodies is larger than half the
    // server's memory log, and the log drops it at the next call (see the final report).
    const definitionsFull = await allPages(client, "ast_search", DEFINITIONS, "full", false);
    const costs = {
      search: costOf(search),
      searchFull: costOf(searchFull),
      definitions: costOf(definitions),
      definitionsFull: costOf(definitionsFull),
    };
    console.log(`Linux 6.1 (${LINUX}); bytes of the text block the model reads, every page`);
    console.log(`ripgrep --json '${PATTERN}': ${rg.bytesPerMatch.toFixed(1)} bytes per match`);
    console.log(
      "| answer | items | pages | bytes per item | response bytes per item | max tokens of a response |",
    );
    console.log("| --- | --- | --- | --- | --- | --- |");
    console.log(row(`search '${PATTERN}', compact (default)`, costs.search, rg.bytesPerMatch));
    console.log(row(`search '${PATTERN}', detail full`, costs.searchFull, rg.bytesPerMatch));
    console.log(row("C functions in kernel/, compact (default)", costs.definitions));
    console.log(row("C functions in kernel/, detail full (first page)", costs.definitionsFull));
    const totals = [
      ["search", costs.search.items, rg.matches],
      ["ast_search", costs.definitions.items, matchCount(definitionsFull.pages[0].envelope)],
    ] as const;
    for (const [name, shown, expected] of totals) {
      if (shown !== expected) {
        console.log(`${name}: the pages hold ${shown} items, expected ${expected}`);
        failed = true;
      }
    }
    // Paging against a re-run, interleaved: the stored page vs the query again.
    const executionId = search.pages[0].envelope.execution_id as string;
    const offset = search.pages[0].items;
    const pageMs: number[] = [];
    const rerunMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      await client.callTool({
        name: "get_execution",
        arguments: { execution_id: executionId, offset },
      });
      pageMs.push(performance.now() - started);
      started = performance.now();
      await client.callTool({ name: "search", arguments: { ...SEARCH, offset } });
      rerunMs.push(performance.now() - started);
    }
    console.log(
      `next page of the search: get_execution ${ms(median(pageMs))}, running the query again ` +
        `${ms(median(rerunMs))} (median of ${runs}, interleaved; ${
          ms(median(definitions.pageMs))
        } per get_execution page of the ${costs.definitions.pages} definition pages)`,
    );
    const cli = await runOnce("deno", [
      "run",
      "--quiet",
      `--config=${CONFIG}`,
      "-R",
      join(REPO, "tools/search/main.ts"),
      "--format",
      "compact",
      "--limit",
      "0",
      PATTERN,
    ], LINUX);
    console.log(`CLI --format compact of the same search: ${ms(cli.ms)}`);
    const searchRatio = costs.search.bytesPerItem / rg.bytesPerMatch;
    const checks = [
      [`search ≤ ${SEARCH_RATIO}× ripgrep --json per match`, searchRatio <= SEARCH_RATIO],
      [
        `≤ ${DEFINITION_BYTES} bytes per definition`,
        costs.definitions.bytesPerItem <= DEFINITION_BYTES,
      ],
      [
        `every default response ≤ ${RESPONSE_TOKENS} tokens`,
        Math.max(costs.search.maxTokens, costs.definitions.maxTokens) <= RESPONSE_TOKENS,
      ],
      [
        "a cut default answer is partial with a next_page",
        search.pages[0].envelope.partial === true && "next_page" in search.pages[0].envelope,
      ],
    ] as const;
    for (const [name, ok] of checks) {
      console.log(`${ok ? "ok" : "MISSED"}: ${name}`);
      failed ||= !ok;
    }
    console.log(failed ? "FAILED" : "ok");
  } finally {
    await client.close();
  }
  if (failed) Deno.exitCode = 1;
}

if (import.meta.main) await main();
