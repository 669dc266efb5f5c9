/**
 * `llm-context` end to end, with the permission flags a user gives: on a small Python project
 * indexed by `llm-symbols index`, a task with a traceback finds the function it names first,
 * every block is exactly the bytes of its span with the file's checksum, the budget is never
 * exceeded, the same input gives the same bytes, and bad input is a coded answer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256 } from "../schema/checksum.ts";
import { context, type Evidence } from "../tools/context/main.ts";
import { makeTree, runEntry, type RunResult, seededRandom } from "./helpers.ts";

const ENTRY = "tools/context/main.ts";

const PROJECT: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/parser.py": "import sys\n\n\ndef parse_args(argv):\n" +
    '    """Parse the command line into options."""\n' +
    "    options = {}\n    for flag in argv:\n        if not flag.startswith('--'):\n" +
    "            raise ValueError('unknown flag: ' + flag)\n        options[flag[2:]] = True\n" +
    "    return options\n\n\ndef usage():\n    return 'usage: tool [--verbose]'\n",
  "pkg/cli.py": "from pkg.parser import parse_args, usage\n\n\ndef main(argv):\n" +
    "    options = parse_args(argv)\n    if 'help' in options:\n        print(usage())\n" +
    "    return options\n",
  "pkg/report.py": "class Report:\n    def __init__(self, rows):\n        self.rows = rows\n\n" +
    "    def render(self):\n        return '\\n'.join(str(row) for row in self.rows)\n",
  "tests/test_parser.py": "from pkg.parser import parse_args\n\n\ndef test_parse_args():\n" +
    "    assert parse_args(['--verbose']) == {'verbose': True}\n",
};

const TASK = "parse_args raises ValueError on a positional argument\n\n" +
  "```\nTraceback (most recent call last):\n" +
  '  File "/home/me/tool/pkg/cli.py", line 5, in main\n    options = parse_args(argv)\n' +
  '  File "/home/me/tool/pkg/parser.py", line 9, in parse_args\n' +
  "    raise ValueError('unknown flag: ' + flag)\nValueError: unknown flag: input.txt\n```\n";

interface Block {
  span: {
    file_path: string;
    byte_start: number;
    byte_end: number;
    start_line: number;
    span_id: string;
  };
  checksum: string;
  name?: string;
  kind: string;
  tokens: number;
  text: string;
  reasons: string[];
  outline?: { signature: string }[];
}

interface Answer {
  status: string;
  data: {
    budget: number;
    tokens_used: number;
    files: { file_path: string; reasons: string[] }[];
    blocks: Block[];
    omitted: { span: { span_id: string }; tokens: number }[];
    next?: { tool: string; arguments: { exclude: string[]; budget: number } };
  };
  diagnostics: { code: string; level: string }[];
}

/** The project indexed by `llm-symbols index`. */
async function indexed(files: Record<string, string> = PROJECT): Promise<string> {
  const root = await makeTree(files);
  const result = await runEntry("tools/symbols/main.ts", ["index"], {
    cwd: root,
    permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
  });
  assert.equal(result.code, 0, result.stdout);
  return root;
}

function ask(root: string, args: string[], stdin?: string): Promise<RunResult> {
  return runEntry(ENTRY, args, { cwd: root, permissions: [`--allow-read=${root}`], stdin });
}

function answerOf(result: RunResult): Answer {
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return JSON.parse(result.stdout) as Answer;
}

/** Each block's text is its span's bytes, and its checksum the whole file's. */
function assertBlocksAreBytes(root: string, blocks: readonly Block[]): void {
  const decoder = new TextDecoder();
  for (const block of blocks) {
    const bytes = Deno.readFileSync(join(root, block.span.file_path));
    assert.equal(
      block.text,
      decoder.decode(bytes.subarray(block.span.byte_start, block.span.byte_end)),
      block.span.span_id,
    );
    assert.equal(block.checksum, sha256(bytes));
    const outline = (block.outline ?? []).reduce((sum, m) => sum + m.signature.length + 1, 0);
    assert.equal(block.tokens, Math.ceil((block.text.length + outline) / 4));
  }
}

Deno.test("context: a traceback's innermost frame and the function it names come first", async () => {
  const root = await indexed();
  try {
    const answer = answerOf(await ask(root, [TASK]));
    assert.equal(answer.data.files[0].file_path, "pkg/parser.py");
    assert.equal(answer.data.blocks[0].name, "parse_args");
    assert.ok(answer.data.blocks[0].reasons.some((reason) => reason.startsWith("traceback:")));
    // Tests count less than the code unless the task names them.
    const test = answer.data.files.findIndex((file) => file.file_path.startsWith("tests/"));
    assert.ok(test === -1 || test > 0);
    assertBlocksAreBytes(root, answer.data.blocks);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: onEvidence is told what the ranking counts and changes no answer", async () => {
  const root = await indexed();
  try {
    const pieces: Evidence[] = [];
    const told = await context({
      cwd: root,
      task: TASK,
      onEvidence: (piece) => pieces.push(piece),
    });
    assert.deepEqual(told, await context({ cwd: root, task: TASK }));
    // The first file's evidence is told, its traceback frame among it.
    const first = told.data.files[0].file_path;
    assert.ok(
      pieces.some((piece) => piece.file_path === first && piece.reason.startsWith("traceback:")),
      JSON.stringify(pieces.filter((piece) => piece.file_path === first)),
    );
    // A symbol's context is no task ranking: nothing is told.
    const before = pieces.length;
    await context({ cwd: root, task: "", symbol: "parse_args", onEvidence: (p) => pieces.push(p) });
    assert.equal(pieces.length, before);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: a traceback through an installed copy is the repository's own, renamed files too", async () => {
  const root = await indexed();
  try {
    // The user's traceback runs through their installed copy, from a release where the parser
    // was pkg/parse.py; numpy's frame is a library's and points nowhere.
    const task = "Options are lost\n\n```\nTraceback (most recent call last):\n" +
      '  File "/venv/lib/python3.9/site-packages/pkg/cli.py", line 5, in main\n' +
      '  File "/venv/lib/python3.9/site-packages/numpy/core/fromnumeric.py", line 3, in usage\n' +
      '  File "/venv/lib/python3.9/site-packages/pkg/parse.py", line 9, in parse_args\n' +
      "ValueError: boom\n```\n";
    const answer = answerOf(await ask(root, [task]));
    assert.equal(
      answer.data.files[0].file_path,
      "pkg/parser.py",
      JSON.stringify(answer.data.files),
    );
    assert.equal(answer.data.blocks[0].name, "parse_args");
    assert.ok(answer.data.blocks[0].reasons.includes("traceback:pkg/parse.py"));
    const main = answer.data.blocks.find((block) => block.name === "main");
    assert.ok(main?.reasons.includes("traceback:pkg/cli.py:5"), JSON.stringify(main));
    const usage = answer.data.blocks.find((block) => block.name === "usage");
    assert.ok(!usage?.reasons.some((reason) => reason.startsWith("traceback:")));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: a class the task makes brings its constructor, read whole in its place when small", async () => {
  const root = await indexed();
  try {
    const answer = answerOf(await ask(root, ["Report(rows) keeps rows it should drop"]));
    // The class is small: it is read whole, in its constructor's place, with its reasons, and
    // the constructor's text is not sent again.
    const [first] = answer.data.blocks;
    assert.equal(first.name, "Report", JSON.stringify(answer.data));
    assert.ok(first.reasons.includes("constructs:Report"));
    assert.ok(first.reasons.includes("named_in_task:Report"));
    assert.ok(!answer.data.blocks.some((block) => block.name?.endsWith("__init__")));
    const sent = answer.data.blocks.reduce((sum, block) => sum + block.tokens, 0);
    assert.equal(answer.data.tokens_used, sent);
    assertBlocksAreBytes(root, answer.data.blocks);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: a function the title names points at its file", async () => {
  const root = await indexed();
  try {
    const task = "usage() shows no flags\n\nAfter Report(rows) renders, the usage text is empty.";
    const answer = answerOf(await ask(root, [task]));
    const parser = answer.data.files.find((file) => file.file_path === "pkg/parser.py");
    assert.ok(parser?.reasons.includes("defines:usage"), JSON.stringify(answer.data.files));
    // A function only the body names gives its file no such share.
    const body = answerOf(await ask(root, ["Usage shows no flags\n\nAfter usage() is called..."]));
    const untitled = body.data.files.find((file) => file.file_path === "pkg/parser.py");
    assert.ok(!untitled?.reasons.includes("defines:usage"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: the first file's imports come after its best definition", async () => {
  const root = await indexed();
  try {
    const answer = answerOf(await ask(root, [TASK]));
    const head = answer.data.blocks.findIndex((block) => block.reasons.includes("imports"));
    assert.ok(head > 0, JSON.stringify(answer.data.blocks.map((block) => block.reasons)));
    const block = answer.data.blocks[head];
    assert.equal(block.span.file_path, "pkg/parser.py");
    assert.equal(block.kind, "lines");
    assert.equal(block.text, "import sys");
    const best = answer.data.blocks.findIndex((other) => other.span.file_path === "pkg/parser.py");
    assert.ok(best < head);
    assertBlocksAreBytes(root, answer.data.blocks);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: on a tiny project whose every definition has the task's words, the words still rank", async () => {
  const functions = Array.from(
    { length: 6 },
    (_, i) => `def step${i}(widget):\n    return widget.render(${i})\n`,
  );
  functions.push(
    "def redraw(widget):\n    widget.render(0)\n    widget.render(1)\n    return widget.render(2)\n",
  );
  const root = await indexed({ "ui.py": functions.join("\n\n") });
  try {
    const answer = answerOf(await ask(root, ["render widget is slow"]));
    assert.ok(answer.data.blocks.length > 0, JSON.stringify(answer));
    assert.equal(answer.data.blocks[0].name, "redraw");
    assert.ok(answer.data.blocks[0].reasons.includes("terms"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: the budget is never exceeded, and the same input gives the same bytes", async () => {
  const root = await indexed();
  try {
    const random = seededRandom(7);
    for (let round = 0; round < 6; round++) {
      const budget = 10 + Math.floor(random() * 200);
      const first = answerOf(await ask(root, ["--budget", String(budget), TASK]));
      assert.ok(first.data.tokens_used <= budget, `${first.data.tokens_used} > ${budget}`);
      assert.equal(
        first.data.tokens_used,
        first.data.blocks.reduce((sum, block) => sum + block.tokens, 0),
      );
      assertBlocksAreBytes(root, first.data.blocks);
      const second = answerOf(await ask(root, ["--budget", String(budget), TASK]));
      assert.equal(JSON.stringify(second.data), JSON.stringify(first.data));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: --exclude of what a first call listed gives the next blocks", async () => {
  const root = await indexed();
  try {
    const first = answerOf(await ask(root, ["--budget", "60", TASK]));
    assert.ok(first.data.blocks.length > 0 && first.data.omitted.length > 0);
    const held = first.data.blocks.map((block) => block.span.span_id);
    // A partial answer names its next call: the same task, what it listed excluded.
    assert.deepEqual(first.data.next, {
      tool: "context",
      arguments: { exclude: held, budget: 60 },
    });
    const next = answerOf(
      await ask(root, ["--budget", "60", ...held.flatMap((id) => ["--exclude", id]), TASK]),
    );
    assert.ok(next.data.blocks.length > 0);
    for (const block of next.data.blocks) assert.ok(!held.includes(block.span.span_id));
    // Its own next call excludes both pages' blocks.
    const both = [...held, ...next.data.blocks.map((block) => block.span.span_id)];
    if (next.data.next) assert.deepEqual(next.data.next.arguments.exclude, both);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: bad input is a coded answer, never an internal error", async () => {
  const root = await indexed();
  try {
    const empty = await ask(root, ["   "]);
    assert.equal(empty.code, 2, empty.stdout);
    assert.match(empty.stdout, /LMC-ARG-010/);
    // A budget under the best block: the answer says so (and lists nothing).
    const tiny = answerOf(await ask(root, ["--budget", "1", TASK]));
    assert.equal(tiny.data.blocks.length, 0);
    assert.ok(tiny.diagnostics.some((d) => d.code === "LMC-QRY-001"));
    // Its next call takes a budget the best block fits in, not the same call again.
    const next = (tiny.data as { next?: { arguments: { budget: number } } }).next;
    const best = (tiny.data as { omitted: { tokens: number }[] }).omitted[0];
    assert.equal(next?.arguments.budget, best.tokens);
    // A binary task file.
    await Deno.writeFile(join(root, "task.bin"), new Uint8Array([0, 1, 2, 0, 255]));
    const binary = await ask(root, ["--task-file", join(root, "task.bin")]);
    assert.equal(binary.code, 2, binary.stdout);
    assert.match(binary.stdout, /LMC-ARG-011/);
    // A task file that is not there, or a folder.
    for (const missing of [join(root, "no_such_task.md"), join(root, "pkg")]) {
      const absent = await ask(root, ["--task-file", missing]);
      assert.equal(absent.code, 2, absent.stdout);
      assert.match(absent.stdout, /LMC-ARG-011/);
    }
    // A task file over 1 MiB.
    await Deno.writeTextFile(join(root, "task.log"), "parse_args fails\n".repeat(70_000));
    const huge = await ask(root, ["--task-file", join(root, "task.log")]);
    assert.equal(huge.code, 2, huge.stdout);
    assert.match(huge.stdout, /LMC-ARG-011/);
    // --symbol of a name nothing defines.
    const unknown = await ask(root, ["--symbol", "no_such_name"]);
    assert.equal(unknown.code, 2, unknown.stdout);
    assert.match(unknown.stdout, /LMC-QRY-002/);
    // --focus outside the root.
    const outside = await ask(root, ["--focus", "../elsewhere.py", TASK]);
    assert.equal(outside.code, 2, outside.stdout);
    assert.match(outside.stdout, /LMC-ARG-013/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: without an index, a run that may write .llm builds it; one that may not ranks in memory", async () => {
  const root = await makeTree(PROJECT);
  try {
    // Read permission only: the same answer from an index built in memory, and nothing written.
    const inMemory = answerOf(await ask(root, [TASK]));
    assert.ok(inMemory.diagnostics.some((d) => d.code === "LMC-IO-010" && d.level === "note"));
    assert.equal(inMemory.data.blocks[0].name, "parse_args");
    assertBlocksAreBytes(root, inMemory.data.blocks);
    assert.throws(() => Deno.statSync(join(root, ".llm")), Deno.errors.NotFound);
    const built = await runEntry(ENTRY, [TASK], {
      cwd: root,
      permissions: [`--allow-read=${root}`, `--allow-write=${join(root, ".llm")}`],
    });
    const answer = answerOf(built);
    assert.ok(answer.diagnostics.some((d) => d.code === "LMC-IO-011"));
    assert.equal(answer.data.blocks[0].name, "parse_args");
    assert.deepEqual(answer.data.blocks, inMemory.data.blocks);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: a file changed since the index read it gives its blocks from its bytes now", async () => {
  const root = await indexed();
  try {
    const path = join(root, "pkg/parser.py");
    await Deno.writeTextFile(
      path,
      "# a comment that moves every line\n\n" + PROJECT["pkg/parser.py"],
    );
    const answer = answerOf(await ask(root, [TASK]));
    assert.ok(answer.diagnostics.some((d) => d.code === "LMC-IO-012"));
    assertBlocksAreBytes(root, answer.data.blocks);
    assert.ok(answer.data.blocks.some((block) => block.name === "parse_args"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("context: --symbol gives the definition, then its callers, then its callees", async () => {
  const root = await indexed();
  try {
    const answer = answerOf(await ask(root, ["--symbol", "parse_args"]));
    const names = answer.data.blocks.map((block) => block.name);
    assert.equal(names[0], "parse_args");
    assert.ok(answer.data.blocks[0].reasons.includes("symbol:parse_args"));
    // Its callers (main, and the test that calls it, in path order), each with the reason.
    const callers = answer.data.blocks.filter((block) =>
      block.reasons.some((reason) => reason.startsWith("caller_of:"))
    );
    assert.deepEqual(callers.map((block) => block.name), ["main", "test_parse_args"]);
    assertBlocksAreBytes(root, answer.data.blocks);
    // A qualified name picks the definition of that module; the callee is listed after.
    const main = answerOf(await ask(root, ["--symbol", "pkg.cli.main"]));
    assert.equal(main.data.blocks[0].name, "main");
    assert.equal(main.data.blocks[0].span.file_path, "pkg/cli.py");
    assert.ok(
      main.data.blocks.some((block) =>
        block.name === "parse_args" && block.reasons.some((r) => r.startsWith("callee_of:"))
      ),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
