/**
 * The next calls the graph and map tools declare (`tools/symbols/next_call.ts`), branch by branch:
 * what the MCP server names as a partial answer's `next_page` when paging its list does not
 * (tests/mcp_next_page_test.ts drives the common ones through a server).
 */
import assert from "node:assert/strict";
import { queryEnvelope } from "../schema/envelope.ts";
import type { NextCallLimits } from "../core/tool.ts";
import { ALL_EDGES, DEEPER_WALK, MORE_PATHS, WIDER_MAP } from "../tools/symbols/next_call.ts";
import { SYMBOLS_DEFAULTS } from "../tools/symbols/defaults.ts";

const LIMITS: NextCallLimits = { timeoutMs: 45_000, tokens: 20_000 };

/** A query envelope with `data`, partial or not. */
function answer(data: Record<string, unknown>, partial = true) {
  return queryEnvelope("llm-symbols x", { count: 0, ...data }, [], { partial });
}

Deno.test("next call: a walk cut at its depth goes twice as deep; a cut list or no depth bound names none", () => {
  const args = { algorithm: "reachable", name: "f", depth: 2 };
  assert.deepEqual(DEEPER_WALK.next(answer({ count: 3, total: 3 }), args, LIMITS), {
    ...args,
    depth: 4,
  });
  // The list is cut: its pages come from the stored result, not a deeper walk.
  assert.equal(DEEPER_WALK.next(answer({ count: 3, total: 9 }), args, LIMITS), undefined);
  // Depth 0 is no bound: a partial answer there is a cut list.
  assert.equal(
    DEEPER_WALK.next(answer({ count: 3, total: 3 }), { ...args, depth: 0 }, LIMITS),
    undefined,
  );
  assert.equal(DEEPER_WALK.next(answer({ count: 3, total: 3 }, false), args, LIMITS), undefined);
});

Deno.test("next call: paths cut at their count go on from there; cut at their depth go deeper, up to the deepest", () => {
  const paths = (n: number) => Array.from({ length: n }, () => ({ length: 1, symbols: [] }));
  const args = { algorithm: "paths", from: "a", to: "b", limit: 2, depth: 4 };
  assert.deepEqual(MORE_PATHS.next(answer({ results: paths(2) }), args, LIMITS), {
    ...args,
    offset: 2,
  });
  assert.deepEqual(MORE_PATHS.next(answer({ results: paths(1) }), args, LIMITS), {
    ...args,
    depth: 8,
  });
  const deepest = { ...args, depth: SYMBOLS_DEFAULTS.maxDepth };
  assert.equal(MORE_PATHS.next(answer({ results: paths(1) }), deepest, LIMITS), undefined);
  // The default limit and depth when the call gave none.
  const bare = { algorithm: "paths", from: "a", to: "b" };
  assert.deepEqual(MORE_PATHS.next(answer({ results: [] }), bare, LIMITS), {
    ...bare,
    depth: SYMBOLS_DEFAULTS.pathDepth * 2,
  });
});

Deno.test("next call: an export cut takes every edge; a map cut takes twice the tokens, at most one answer's", () => {
  assert.deepEqual(ALL_EDGES.next(answer({}), { algorithm: "export", limit: 5 }, LIMITS), {
    algorithm: "export",
    limit: 0,
  });
  assert.equal(ALL_EDGES.next(answer({}, false), { algorithm: "export" }, LIMITS), undefined);
  assert.deepEqual(WIDER_MAP.next(answer({}), { tokens: 500 }, LIMITS), { tokens: 1_000 });
  assert.deepEqual(WIDER_MAP.next(answer({}), { tokens: 15_000 }, LIMITS), { tokens: 20_000 });
  assert.equal(WIDER_MAP.next(answer({}), { tokens: 20_000 }, LIMITS), undefined);
  assert.deepEqual(WIDER_MAP.next(answer({}), {}, LIMITS), {
    tokens: SYMBOLS_DEFAULTS.mapTokens * 2,
  });
});
