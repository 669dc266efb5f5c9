/**
 * The localization bench's call of the system under test (`bench/localize_context.ts`), with a
 * stand-in for `tools/context/main.ts` that answers from its command line: the flags it is
 * given, the working directory it runs in, and how its envelope is read.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { indexTree, readAnswer, runContext } from "../bench/localize_context.ts";

const STAND_IN = `
const args = Deno.args;
const budget = Number(args[args.indexOf("--budget") + 1]);
const task = Deno.readTextFileSync(args[args.indexOf("--task-file") + 1]);
const format = args[args.indexOf("--format") + 1];
if (task !== "Fix the thing." || format !== "json" || !(budget > 0)) Deno.exit(3);
const text = "x".repeat(budget / 2);
console.log(JSON.stringify({
  schema_version: "1", tool: "llm-context", status: "ok", diagnostics: [],
  data: {
    files: [{ file_path: "pkg/a.py" }, { file_path: Deno.cwd() + "/pkg/b.py" }],
    blocks: [{
      span: { file_path: "./pkg/a.py", byte_start: 0, byte_end: text.length, start_line: 3,
        end_line: 7, end_col: 0 },
      text,
    }],
    tokens_used: budget / 8,
  },
}));
`;

const INDEX_STAND_IN = `
const had = (() => { try { Deno.statSync(".llm/old"); return true; } catch { return false; } })();
Deno.mkdirSync(".llm", { recursive: true });
Deno.writeTextFileSync(".llm/seen", had ? "warm" : "cold");
`;

Deno.test("runContext passes budget, task file and format, in the tree, and reads the answer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tree = join(dir, "tree");
    await Deno.mkdir(tree);
    const entry = join(dir, "context.ts");
    await Deno.writeTextFile(entry, STAND_IN);
    const taskFile = join(dir, "task.md");
    await Deno.writeTextFile(taskFile, "Fix the thing.");
    const answer = await runContext(tree, taskFile, 2000, entry);
    assert.equal(answer.code, 0);
    assert.equal(answer.error, undefined);
    assert.deepEqual(answer.files, ["pkg/a.py", "pkg/b.py"]); // made relative to the tree
    assert.deepEqual(answer.blocks, [{
      file_path: "pkg/a.py",
      start_line: 3,
      end_line: 7,
      end_col: 0,
      byte_start: 0,
      byte_end: 1000,
      tokens: 250, // counted by the bench: ceil(1000 / 4)
    }]);
    assert.equal(answer.tokens_used, 250);
    assert.ok(answer.ms > 0);

    const index = join(dir, "index.ts");
    await Deno.writeTextFile(index, INDEX_STAND_IN);
    await Deno.mkdir(join(tree, ".llm"));
    await Deno.writeTextFile(join(tree, ".llm", "old"), "");
    const run = await indexTree(tree, index);
    assert.equal(run.code, 0);
    assert.equal(await Deno.readTextFile(join(tree, ".llm", "seen")), "cold");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readAnswer reports what it cannot read", () => {
  assert.match(readAnswer("", "/t").error ?? "", /not a JSON envelope/);
  assert.match(readAnswer('{"data":{"count":0}}', "/t").error ?? "", /no data\.files/);
  const ok = readAnswer('{"data":{"files":[],"blocks":[]}}', "/t");
  assert.deepEqual(ok, { files: [], blocks: [] });
});
