/**
 * Running a transaction's file writes side by side: each new file is flushed to disk on its
 * own (`fsync`), and flushes issued together share the file system's journal commits, so a
 * commit of fifty files waits for a few disk flushes instead of a hundred in a row.
 *
 * @module
 */

/** Writes a transaction has in flight at most (each holds a file descriptor and a thread). */
export const PARALLEL_WRITES = 64;

/**
 * Runs `task` on every item, at most `limit` at a time; no item starts after one has failed.
 * Every task started is waited for before it returns or throws, so the caller may clean up
 * after a failure knowing nothing is still being written; it throws the error of the first
 * failed item in `items` order.
 *
 * @example
 * ```ts
 * import { eachLimited } from "./parallel.ts";
 * const seen: number[] = [];
 * await eachLimited([1, 2, 3], 2, async (item) => { seen.push(item); });
 * seen.length; // 3
 * ```
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const failures = new Map<number, unknown>();
  let next = 0;
  const lane = async () => {
    while (next < items.length && failures.size === 0) {
      const index = next++;
      try {
        await task(items[index], index);
      } catch (error) {
        failures.set(index, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(items.length, Math.max(1, limit)) }, lane));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
}
