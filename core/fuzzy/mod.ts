/**
 * Fuzzy path matching as fzf does it (`--scheme=path`): the query language (`query.ts`: terms,
 * `'exact`, `^prefix`, `suffix$`, `!not`, `|` alternatives, smart case), fzf's algorithms over
 * code points (`algo.ts`, with the character classes and scores of `text.ts`), the path scorer
 * that ranks a file by them with the toolkit's basename and stem bonuses (`scorer.ts`), and the
 * best N of a stream of scored paths (`top.ts`). `llm-discover` ranks files with it and
 * `llm-symbols` suggests close file names.
 *
 * @example Rank two paths
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQuery, PathScorer } from "./mod.ts";
 * const scorer = new PathScorer(parseQuery("main"));
 * assert.ok(scorer.score("src/main.ts") > scorer.score("docs/maintainers.md"));
 * ```
 *
 * @module
 */
export * from "./algo.ts";
export * from "./query.ts";
export * from "./scorer.ts";
export * from "./text.ts";
export * from "./top.ts";
