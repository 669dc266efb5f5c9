/**
 * The search engine as a library function: walk, dispatch files to workers in batches (or
 * search inline when the tree is small), and collect results in walk order.
 *
 * @module
 */
import { type EngineWalkOptions, type WalkEntry, Walker } from "../../core/walk/walker.ts";
import { permissionError } from "../../core/permissions.ts";
import type { Diagnostic } from "../../schema/diagnostic.ts";
import type { SearchData } from "../../schema/search.ts";
import { type BatchFile, type BatchFileResult, BatchSearcher } from "./batch.ts";
import { ResultCollector, type SearchMode } from "./collector.ts";
import { buildMatcher, type MatcherOptions, type MatcherSpec } from "./matcher.ts";
import type { SearchFileOptions } from "./searcher.ts";
import type { WorkerRequest } from "./worker.ts";

/** Walk settings a search passes through to the walker. */
export type SearchWalkOptions = EngineWalkOptions;

/** Everything a search needs. */
export interface SearchOptions extends MatcherOptions {
  /** Tool root: relative paths resolve against it, file paths are reported relative to it. */
  cwd: string;
  /** Files or directories to search; default the root. */
  paths?: readonly string[];
  /** What to list. */
  mode?: SearchMode;
  /** Matching lines per file before the file is left (ripgrep's `-m`). */
  maxCount?: number;
  /** Results to list (0: all). */
  limit?: number;
  /** Context lines before each match. */
  before?: number;
  /** Context lines after each match. */
  after?: number;
  /** Longest line text in bytes. */
  maxColumns?: number;
  /** Add checksums to matches. */
  withChecksums?: boolean;
  /** Walker settings. */
  walk?: SearchWalkOptions;
  /** Worker threads; default the number of CPUs. `1` searches on the calling thread. */
  threads?: number;
  /** Stream listed results here instead of keeping them in `data`. */
  emit?: (item: unknown) => void;
  /** Stops the search between batches (an MCP client's cancellation). */
  signal?: AbortSignal;
}

/** The result of a search. */
export interface SearchResult {
  /** The envelope's data. */
  data: SearchData;
  /** Walk and read diagnostics. */
  diagnostics: Diagnostic[];
  /** Whether the listing was cut by the limit. */
  partial: boolean;
}

/** Below this many files a search runs on the calling thread: starting workers costs more. */
const INLINE_FILES = 400;
/** Files per batch sent to a worker. */
const BATCH_FILES = 96;
/** Batches a worker may hold at once, so it never waits for the walking thread. */
const BATCHES_IN_FLIGHT = 3;

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/**
 * Whether worker threads can be started: a local worker module must be readable, which a run
 * scoped to the searched tree (`--allow-read=<root>`) may not allow; remote modules (JSR) and
 * compiled binaries need no read permission. Without workers the search runs inline.
 */
function canStartWorkers(): boolean {
  if (WORKER_URL.protocol !== "file:") return true;
  return Deno.permissions.querySync({ name: "read", path: WORKER_URL }).state === "granted";
}

function toBatchFile(entry: WalkEntry): BatchFile {
  return { absPath: entry.absPath, filePath: entry.filePath, explicit: entry.explicit };
}

/** Pulls up to `count` files from the walk. */
function takeFiles(entries: Iterator<WalkEntry>, count: number): BatchFile[] {
  const files: BatchFile[] = [];
  while (files.length < count) {
    const next = entries.next();
    if (next.done) break;
    if (next.value.kind === "file") files.push(toBatchFile(next.value));
  }
  return files;
}

interface WorkerReply {
  id: number;
  results?: BatchFileResult[];
  failure?: { message: string; refused: boolean };
}

/** Runs batches on a pool of workers and hands results back in batch order. */
async function searchWithWorkers(
  first: BatchFile[],
  entries: Iterator<WalkEntry>,
  spec: MatcherSpec,
  fileOptions: SearchFileOptions,
  threads: number,
  collector: ResultCollector,
  signal: AbortSignal | undefined,
): Promise<void> {
  const inbox: WorkerReply[] = [];
  let wake: (() => void) | undefined;
  const workers = Array.from({ length: threads }, () => {
    const worker = new Worker(WORKER_URL, { type: "module" });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      inbox.push(event.data);
      wake?.();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      inbox.push({ id: -1, failure: { message: event.message, refused: false } });
      wake?.();
    };
    worker.postMessage({ type: "init", spec, options: fileOptions } satisfies WorkerRequest);
    return worker;
  });
  const load = new Array<number>(threads).fill(0);
  const owner = new Map<number, number>();
  const done = new Map<number, BatchFileResult[]>();
  let nextId = 0;
  let nextToCollect = 0;
  let pendingFirst: BatchFile[] | undefined = first;
  let walkDone = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      // Keep every worker supplied while the walk lasts.
      for (let slot = 0; !walkDone && slot < threads; slot++) {
        while (load[slot] < BATCHES_IN_FLIGHT) {
          const files = pendingFirst ?? takeFiles(entries, BATCH_FILES);
          pendingFirst = undefined;
          if (files.length === 0) {
            walkDone = true;
            break;
          }
          const id = nextId++;
          owner.set(id, slot);
          load[slot]++;
          workers[slot].postMessage({ type: "batch", id, files } satisfies WorkerRequest);
        }
      }
      if (walkDone && nextToCollect === nextId) return;
      if (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      for (const reply of inbox.splice(0)) {
        if (reply.failure) {
          const error = new Error(reply.failure.message);
          throw reply.failure.refused ? permissionError("LMS", error) : error;
        }
        load[owner.get(reply.id) ?? 0]--;
        owner.delete(reply.id);
        done.set(reply.id, reply.results ?? []);
      }
      for (let ready = done.get(nextToCollect); ready; ready = done.get(nextToCollect)) {
        done.delete(nextToCollect++);
        collector.add(ready);
      }
    }
  } finally {
    for (const worker of workers) worker.terminate();
  }
}

/**
 * Searches files under `options.cwd` and returns the data of an `llm-search` envelope.
 * Throws a `ToolError` for bad patterns (`LMS-QRY-*`), bad filters (`LMS-ARG-*`) and missing
 * permissions (`LMS-PERM-*`).
 *
 * @example Count the matches of a pattern
 * ```ts
 * import { search } from "@llm/search/search";
 * const result = await search({ patterns: ["export"], cwd: Deno.cwd(), paths: ["mod.ts"] });
 * result.data.match_count > 0; // true
 * ```
 */
export async function search(options: SearchOptions): Promise<SearchResult> {
  const spec = buildMatcher(options);
  const walker = new Walker({
    ...options.walk,
    tool: "llm-search",
    prefix: "LMS",
    cwd: options.cwd,
    paths: options.paths,
  });
  const fileOptions: SearchFileOptions = {
    mode: options.mode ?? "matches",
    maxCount: options.maxCount,
    before: options.before ?? 0,
    after: options.after ?? 0,
    maxColumns: options.maxColumns ?? 500,
    withChecksums: options.withChecksums ?? false,
  };
  const collector = new ResultCollector(
    [...options.patterns],
    fileOptions.mode,
    options.limit ?? 200,
    options.emit,
  );
  const entries = walker.entries();
  const first = takeFiles(entries, INLINE_FILES);
  const threads = Math.max(1, options.threads ?? navigator.hardwareConcurrency ?? 1);
  if (first.length < INLINE_FILES || threads === 1 || !canStartWorkers()) {
    const searcher = new BatchSearcher(spec, fileOptions);
    for (let files = first; files.length > 0; files = takeFiles(entries, BATCH_FILES)) {
      options.signal?.throwIfAborted();
      collector.add(searcher.search(files));
    }
  } else {
    await searchWithWorkers(first, entries, spec, fileOptions, threads, collector, options.signal);
  }
  return {
    data: collector.finish(),
    diagnostics: [...walker.diagnostics, ...collector.diagnostics],
    partial: collector.partial,
  };
}
