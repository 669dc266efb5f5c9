/**
 * A symbol named by its `symbol_id` (`--symbol-id`, or the id `find` prints given as the name)
 * wherever `llm-symbols` and `llm-refactor` take a symbol: two `static int helper(void)` in
 * `a.c` and `b.c`, each called from its own file, are told apart by `callers`, `refs`,
 * `callees`, `find`, `reachable`, `impact` and a rename; a name and an id that disagree, an
 * unknown id, a malformed id and no symbol at all are coded refusals.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree, parseJson, runEntry, type RunResult } from "./helpers.ts";
import { refactorCli } from "./refactor_helpers.ts";

const ENTRY = "tools/symbols/main.ts";

const FIXTURE: Record<string, string> = {
  "a.c": "static int helper(void) { return 1; }\n" +
    "int a_one(void) { return helper(); }\n" +
    "int a_two(void) { return helper() + 1; }\n",
  "b.c": "static int helper(void) { return 2; }\n" +
    "int b_one(void) { return helper(); }\n",
};

type Json = Record<string, unknown>;
interface Use {
  span: { file_path: string; start_line: number };
  caller?: { name: string };
}

function query(root: string, args: string[]): Promise<RunResult> {
  return runEntry(ENTRY, args, { cwd: root, permissions: ["--allow-read"] });
}

async function data(root: string, args: string[]): Promise<Json> {
  const result = await query(root, args);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return parseJson(result).data as Json;
}

async function refusal(root: string, args: string[]): Promise<{ code: string; exit: number }> {
  const result = await query(root, args);
  const envelope = parseJson(result) as { diagnostics: { code: string; level: string }[] };
  const error = envelope.diagnostics.find((d) => d.level === "error");
  assert.ok(error, result.stdout);
  return { code: error.code, exit: result.code };
}

function callerNames(value: Json): string[] {
  return (value.results as Use[]).map((use) => `${use.span.file_path} ${use.caller?.name}`)
    .sort();
}

Deno.test("symbol_id tells two same-named static functions apart in every query", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const index = await runEntry(ENTRY, ["index", "--threads", "0"], {
      cwd: root,
      permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
    });
    assert.equal(index.code, 0, index.stderr);
    const found = (await data(root, ["find", "helper"])).results as {
      symbol_id: string;
      span: { file_path: string };
    }[];
    const idOf = (file: string) => found.find((row) => row.span.file_path === file)!.symbol_id;
    const [a, b] = [idOf("a.c"), idOf("b.c")];
    assert.notEqual(a, b);

    // By name: both files' callers. By id (flag, or the id as the name): that file's only.
    assert.deepEqual(callerNames(await data(root, ["callers", "helper"])), [
      "a.c a_one",
      "a.c a_two",
      "b.c b_one",
    ]);
    assert.deepEqual(callerNames(await data(root, ["callers", "--symbol-id", a])), [
      "a.c a_one",
      "a.c a_two",
    ]);
    assert.deepEqual(callerNames(await data(root, ["callers", b])), ["b.c b_one"]);
    assert.deepEqual(callerNames(await data(root, ["refs", "helper", "--symbol-id", b])), [
      "b.c b_one",
    ]);
    // The full path (--format compact loads the definitions) takes the field too.
    const compact = await query(root, ["callers", "--symbol-id", b, "--format", "compact"]);
    assert.equal(compact.code, 0, compact.stderr);
    assert.ok(compact.stdout.includes("b.c") && !compact.stdout.includes("a.c"));

    const byId = await data(root, ["find", "--symbol-id", a]);
    assert.equal(byId.total, 1);
    assert.equal(byId.ambiguous, false);
    const callees = await data(root, ["callees", "--symbol-id", idOf("a.c")]);
    assert.deepEqual((callees.definitions as { symbol_id: string }[]).map((d) => d.symbol_id), [
      a,
    ]);
    const reverse = await data(root, ["reachable", "--symbol-id", b, "--direction", "reverse"]);
    assert.deepEqual(
      (reverse.results as { name: string }[]).map((symbol) => symbol.name),
      ["b_one"],
    );
    const impact = await data(root, ["impact", "--symbol-id", a]);
    assert.deepEqual(impact.files, ["a.c"]);

    // Refusals, each coded.
    assert.deepEqual(await refusal(root, ["callers", "a_one", "--symbol-id", b]), {
      code: "MAG-REF-005",
      exit: 2,
    });
    assert.deepEqual(await refusal(root, ["impact", "a_one", "--symbol-id", b]), {
      code: "MAG-REF-005",
      exit: 2,
    });
    assert.deepEqual(await refusal(root, ["refs", "--symbol-id", "0123456789abcdef"]), {
      code: "MAG-REF-004",
      exit: 2,
    });
    assert.deepEqual(await refusal(root, ["callees", "--symbol-id", "helper"]), {
      code: "MAG-ARG-002",
      exit: 2,
    });
    assert.deepEqual(await refusal(root, ["callers"]), { code: "MAG-ARG-002", exit: 2 });

    // A rename by id renames that file's helper only; a disagreeing name is refused.
    const mixed = await refactorCli(root, ["rename", "a_one", "--symbol-id", b, "--to", "x"]);
    assert.equal(mixed.code, 2);
    assert.equal(mixed.envelope.error?.code, "SPL-REF-006");
    const renamed = await refactorCli(root, ["rename", b, "--to", "b_helper", "--gates", "syntax"]);
    assert.equal(renamed.code, 0, JSON.stringify(renamed.envelope));
    assert.equal(await Deno.readTextFile(join(root, "a.c")), FIXTURE["a.c"]);
    assert.equal(
      await Deno.readTextFile(join(root, "b.c")),
      FIXTURE["b.c"].replaceAll("helper", "b_helper"),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
