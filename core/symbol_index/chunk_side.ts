/**
 * The full-text table's side build: on a cold index run, the chunks go to a worker thread that
 * writes them into a database of their own beside the index (`<index>-chunks`), while the
 * calling thread writes the facts; at the end the index takes the side database's full-text
 * table whole (`IndexStore.adoptChunks`). SQLite writes one database from one thread
 * at a time: the calling thread wrote both, 0.79 s for Linux `kernel/` of which the chunks
 * (FTS5's tokenizing and merging) were 0.43 s, and with parsing spread over many workers those
 * writes were what the run waited for. Split, the two writes run at once.
 *
 * @module
 */
import type { RowValue } from "./fact_rows.ts";
import type { IndexStore } from "./store.ts";

/** What the side build sends its worker (`chunk_side_worker.ts`). */
export type ChunkSideMessage = { open: string } | { rows: RowValue[] } | { finish: true };
/** What the worker answers: a batch written, the database closed, or why it stopped. */
export type ChunkSideReply = { written: number } | { closed: true } | { error: string };

/** `meta` key set while a side build's chunks are not yet the index's. */
const PENDING_KEY = "chunks_side_pending";

/** Batches posted to the side writer and not yet written, past which the caller waits. */
const QUEUED_BATCHES = 4;
/** How long a stopped build's worker may take to write what it was sent and close (ms). */
const STOP_MS = 2_000;

/** Path of the side database of the index at `indexPath`. */
export function chunkSidePath(indexPath: string): string {
  return `${indexPath}-chunks`;
}

/**
 * One side build: {@linkcode ChunkSideBuild.write} posts a batch of chunk rows (row ids first),
 * {@linkcode ChunkSideBuild.finish} answers once every batch is written and the database
 * closed, {@linkcode ChunkSideBuild.stop} stops the worker. A failure of the worker rejects
 * `finish` (and `room`). Only the caller that had the index take the chunks removes the side
 * database ({@linkcode ChunkSideBuild.remove}); a run stopped before leaves it, and the index's
 * mark, to the next run ({@linkcode recoverSideChunks}).
 */
export class ChunkSideBuild {
  /** The side database's path. */
  readonly path: string;
  readonly #worker: Worker;
  #queued = 0;
  #closed = false;
  #failure: Error | undefined;
  /** Waiters for a batch to be written, or for the failure. */
  #waiters: (() => void)[] = [];
  #finished: Promise<void> | undefined;

  /** Starts the worker on a new side database for the index at `indexPath`. */
  constructor(indexPath: string) {
    this.path = chunkSidePath(indexPath);
    removeIfPresent(this.path);
    // A literal URL, so tools that analyse worker specifiers see it.
    this.#worker = new Worker(new URL("./chunk_side_worker.ts", import.meta.url), {
      type: "module",
    });
    this.#worker.onmessage = (event: MessageEvent<ChunkSideReply>) => {
      const reply = event.data;
      if ("error" in reply) this.#fail(new Error(`the chunk writer failed: ${reply.error}`));
      else if ("written" in reply) this.#queued--;
      else this.#closed = true;
      this.#wake();
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#fail(new Error(`the chunk writer failed: ${event.message}`));
    };
    this.#post({ open: this.path });
  }

  #post(message: ChunkSideMessage): void {
    this.#worker.postMessage(message);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    waiters.forEach((wake) => wake());
  }

  /** Waits until `ready` holds, or throws the build's failure. */
  async #until(ready: () => boolean): Promise<void> {
    while (!this.#failure && !ready()) {
      await new Promise<void>((wake) => this.#waiters.push(wake));
    }
    if (this.#failure) throw this.#failure;
  }

  /** Posts a batch of chunk rows (`chunkRowValues`, several files' one after the other). */
  write(values: RowValue[]): void {
    if (values.length === 0 || this.#failure) return;
    this.#queued++;
    this.#post({ rows: values });
  }

  /** Answers once fewer than a few batches wait to be written (so memory stays bounded). */
  room(): Promise<void> {
    return this.#until(() => this.#queued < QUEUED_BATCHES);
  }

  /** Answers once every batch is written and the side database closed. */
  finish(): Promise<void> {
    this.#finished ??= (async () => {
      this.#post({ finish: true });
      // The worker answers in order: once it has closed, every batch before is written.
      await this.#until(() => this.#closed);
      this.#worker.terminate();
    })();
    return this.#finished;
  }

  /**
   * Stops the build: the worker writes the batches it was sent (at most a few, which `room`
   * bounds) and closes its database, so that the file is whole and no lock of this process
   * stays on it for the next run; a worker that does not close within {@linkcode STOP_MS} is
   * stopped as it is (a batch it was writing is rolled back by the next open of the file).
   */
  async stop(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => timer = setTimeout(resolve, STOP_MS));
    await Promise.race([this.finish().catch(() => {}), late]);
    clearTimeout(timer);
    this.#worker.terminate();
    this.#fail(new Error("the chunk writer was stopped"));
  }

  /** Removes the side database, once the index has its chunks. */
  remove(): void {
    removeIfPresent(this.path);
  }
}

/**
 * Marks `store` as having a side build under way, whose database is at
 * {@linkcode chunkSidePath}: a run stopped before the index takes its chunks leaves this mark,
 * and the next run recovers them ({@linkcode recoverSideChunks}).
 */
export function markSideChunksPending(store: IndexStore): void {
  store.setMeta(PENDING_KEY, "1");
}

/** Clears the mark of {@linkcode markSideChunksPending} (the index has the chunks). */
export function clearSideChunksPending(store: IndexStore): void {
  store.deleteMeta(PENDING_KEY);
}

/**
 * After a run stopped (killed) before its index took a side build's chunks: the index takes the
 * batches the side database holds, and the files whose chunks were not among them lose their
 * facts, so that the refresh extracts them again as new files (every file has its module's
 * chunk, so they are known). Answers how many files lost their facts. A side database that
 * cannot be taken (gone, damaged) makes every file's facts stale instead: the refresh extracts
 * every file again. Either way the side database and the mark are gone after.
 */
export function recoverSideChunks(store: IndexStore): number {
  if (store.location.inMemory || store.meta(PENDING_KEY) === undefined) return 0;
  const path = chunkSidePath(store.location.absPath);
  let lost = 0;
  try {
    // Not opened when it is gone: SQLite would make an empty database of that name.
    Deno.lstatSync(path);
    store.adoptChunks(path);
    const missing = store.filesWithoutChunks();
    store.transaction(() => missing.forEach((file) => store.removeFile(file)));
    lost = missing.length;
  } catch {
    store.markFactsStale();
  }
  removeIfPresent(path);
  clearSideChunksPending(store);
  return lost;
}

/** Removes the file at `path` (a link itself, not what it names), if there is one. */
function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
