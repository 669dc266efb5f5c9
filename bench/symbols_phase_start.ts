/**
 * The first module `symbols_query_phases.ts` runs: the time from the process's time origin until
 * then (Deno's start and the reading of the whole module graph, which precede any evaluation).
 *
 * @module
 */

/** Milliseconds from the time origin to this module's evaluation. */
export const FIRST_MODULE_MS: number = performance.now();
