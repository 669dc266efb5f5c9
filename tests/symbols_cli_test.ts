/**
 * `llm-symbols` end to end: real subprocesses with the permission flags a user gives (queries
 * `--allow-read` only, `index` `--allow-read --allow-write=<root>/.llm`), on fixture repositories
 * in C, Python and TypeScript made in temporary folders.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { makeTree, parseJson, REPO, runEntry, type RunResult } from "./helpers.ts";

const ENTRY = "tools/symbols/main.ts";

const FIXTURE: Record<string, string> = {
  "c/util.h": "int helper(int x);\nint twice(int x);\n",
  "c/util.c": '#include "util.h"\nint helper(int x) { return x + 1; }\n' +
    "int twice(int x) { return helper(helper(x)); }\n",
  "c/main.c": '#include <stdio.h>\n#include "util.h"\nstatic int run(void) { return twice(2); }\n' +
    'int main(void) { printf("%d", run()); return helper(0); }\n',
  "py/a.py": "def load():\n    return 1\n",
  "py/b.py": "def load():\n    return 2\n",
  "py/c.py": "import os\n\ndef use():\n    return load()\n",
  "py/d.py": "from a import load\n\ndef go():\n    return load()\n",
  "ts/greet.ts": 'export function greet(name: string): string {\n  return "hello " + name;\n}\n',
  "ts/main.ts": 'import { greet } from "./greet.ts";\n\n' +
    'export function main(): void {\n  console.log(greet("world"));\n}\n',
};

type Json = Record<string, unknown>;
type Span = { file_path: string; start_line: number };
type Use = {
  name: string;
  span: Span;
  caller?: { name: string };
  resolution: string;
  resolved_in?: string;
  target?: { span: Span };
  candidates?: string[];
  depth?: number;
};

function index(root: string, args: string[] = []): Promise<RunResult> {
  return runEntry(ENTRY, ["index", ...args], {
    cwd: root,
    permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
  });
}

function query(root: string, args: string[]): Promise<RunResult> {
  return runEntry(ENTRY, args, { cwd: root, permissions: ["--allow-read"] });
}

async function queryJson(root: string, args: string[]): Promise<Json> {
  const result = await query(root, args);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return parseJson(result);
}

async function indexed(files: Record<string, string> = FIXTURE): Promise<string> {
  const root = await makeTree(files);
  const result = await index(root);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return root;
}

function results<T = Json>(envelope: Json): T[] {
  return (envelope.data as { results: T[] }).results;
}

function where(span: Span): string {
  return `${span.file_path}:${span.start_line}`;
}

function errorOf(
  result: RunResult,
): { code: string; message: string; remediation?: string; note?: string } {
  const envelope = parseJson(result) as {
    diagnostics?: { code: string; message: string; remediation?: string }[];
    error?: { code: string; message: string; remediation?: string };
  };
  return envelope.error ?? envelope.diagnostics!.find((d) => d.code)!;
}

Deno.test("symbols: definitions, callers, callees, refs, imports across C, Python and TypeScript", async (t) => {
  const root = await indexed();
  try {
    await t.step(
      "find: an exact name, its definition only (a prototype is no definition)",
      async () => {
        const found = await queryJson(root, ["find", "helper"]);
        assert.deepEqual(results<{ span: Span }>(found).map((r) => where(r.span)), ["c/util.c:2"]);
        assert.equal((found.data as Json).ambiguous, false);
      },
    );

    await t.step("find: several definitions are all listed and flagged ambiguous", async () => {
      const found = await queryJson(root, ["find", "load"]);
      assert.deepEqual(results<{ span: Span }>(found).map((r) => r.span.file_path), [
        "py/a.py",
        "py/b.py",
      ]);
      assert.equal((found.data as Json).ambiguous, true);
    });

    await t.step("find: prefix, fuzzy, kind and path filters", async () => {
      const prefix = await queryJson(root, ["find", "--match", "prefix", "hel"]);
      assert.deepEqual(results<{ name: string }>(prefix).map((r) => r.name), ["helper"]);
      const fuzzy = await queryJson(root, ["find", "--match", "fuzzy", "hlpr"]);
      assert.equal(results<{ name: string }>(fuzzy)[0].name, "helper");
      const kinds = await queryJson(root, ["find", "helper", "-k", "struct"]);
      assert.equal((kinds.data as Json).count, 0);
      const scoped = await queryJson(root, ["find", "main", "ts"]);
      assert.deepEqual(results<{ span: Span }>(scoped).map((r) => r.span.file_path), [
        "ts/main.ts",
      ]);
    });

    await t.step(
      "callers: same file first, then through an include, transitively with depth",
      async () => {
        const callers = await queryJson(root, ["callers", "helper", "--depth", "3"]);
        const uses = results<Use>(callers).map((use) =>
          `${use.depth} ${where(use.span)} ${use.caller?.name} ${use.resolved_in}`
        );
        assert.deepEqual(uses, [
          "1 c/main.c:4 main import",
          "1 c/util.c:3 twice file",
          "1 c/util.c:3 twice file",
          "2 c/main.c:3 run import",
          "3 c/main.c:4 main file",
        ]);
      },
    );

    await t.step("callees: resolved, and unresolved kept (printf has no definition)", async () => {
      const callees = await queryJson(root, ["callees", "main", "c"]);
      const uses = results<Use>(callees).map((use) =>
        `${use.name} ${use.resolution} ${use.target ? where(use.target.span) : "-"}`
      );
      assert.deepEqual(uses, [
        "printf unresolved -",
        "run resolved c/main.c:3",
        "helper resolved c/util.c:2",
      ]);
      const deeper = await queryJson(root, ["callees", "main", "--depth", "2", "c"]);
      assert.ok(results<Use>(deeper).some((use) => use.name === "twice" && use.depth === 2));
    });

    await t.step(
      "an ambiguous call is marked with its candidates; an imported one resolves",
      async () => {
        const callers = await queryJson(root, ["callers", "load"]);
        const [ambiguous, imported] = results<Use>(callers);
        assert.equal(where(ambiguous.span), "py/c.py:4");
        assert.equal(ambiguous.resolution, "ambiguous");
        assert.equal(ambiguous.candidates?.length, 2);
        assert.equal(where(imported.span), "py/d.py:4");
        assert.equal(imported.resolved_in, "import");
        assert.equal(imported.target?.span.file_path, "py/a.py");
        const counts = (callers.data as Json).resolution_counts;
        assert.deepEqual(counts, { resolved: 1, ambiguous: 1, unresolved: 0 });
      },
    );

    await t.step("refs: the import and the call of a TypeScript function", async () => {
      const refs = await queryJson(root, ["refs", "greet"]);
      assert.deepEqual(
        results<Use>(refs).map((use) => `${where(use.span)} ${use.resolution}`),
        ["ts/main.ts:1 resolved", "ts/main.ts:4 resolved"],
      );
    });

    await t.step("outline, imports and importers", async () => {
      const outline = await queryJson(root, ["outline", "c/main.c"]);
      assert.deepEqual(results<{ name: string }>(outline).map((r) => r.name), ["run", "main"]);
      const imports = await queryJson(root, ["imports", "c/main.c"]);
      assert.deepEqual(
        results<{ target: string; resolved_path?: string }>(imports).map((r) =>
          `${r.target}>${r.resolved_path ?? ""}`
        ),
        ["stdio.h>", "util.h>c/util.h"],
      );
      const importers = await queryJson(root, ["importers", "c/util.h"]);
      assert.deepEqual(results<{ span: Span }>(importers).map((r) => r.span.file_path), [
        "c/main.c",
        "c/util.c",
      ]);
    });

    await t.step("--format text and jsonl", async () => {
      const text = await query(root, ["callers", "twice", "--format", "text"]);
      assert.equal(text.stdout, "c/main.c:3:31: call twice in run (resolved -> c/util.c:3:1)\n");
      const jsonl = await query(root, ["find", "load", "--format", "jsonl"]);
      const lines = jsonl.stdout.trim().split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(lines.map((line) => line.type), ["symbol", "symbol", "summary"]);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("symbols: unknown names, files and subcommands are coded; help lists the subcommands", async () => {
  const root = await indexed();
  try {
    const unknown = await query(root, ["callers", "helpr"]);
    assert.equal(unknown.code, 2);
    const error = errorOf(unknown);
    assert.equal(error.code, "MAG-REF-001");
    assert.match(error.message, /did you mean 'helper'/);
    const file = await query(root, ["outline", "c/nope.c"]);
    assert.equal(file.code, 2);
    assert.equal(errorOf(file).code, "MAG-REF-002");
    const subcommand = await query(root, ["calers", "helper"]);
    assert.equal(subcommand.code, 2);
    assert.match(errorOf(subcommand).message, /did you mean 'callers'/);
    const help = await query(root, ["--help"]);
    assert.equal(help.code, 0);
    for (const name of ["index", "find", "refs", "callers", "callees", "outline", "importers"]) {
      assert.match(help.stdout, new RegExp(`^  ${name} `, "m"));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("symbols: incremental index after an edit, an addition, a deletion and a rename", async () => {
  const root = await indexed();
  try {
    const again = parseJson(await index(root)).result as Json;
    assert.deepEqual([again.parsed, again.unchanged, again.removed], [0, 9, 0]);

    await Deno.writeTextFile(join(root, "py/b.py"), "def load_b():\n    return 2\n");
    await Deno.writeTextFile(join(root, "py/e.py"), "def extra():\n    return 3\n");
    await Deno.remove(join(root, "py/a.py"));
    await Deno.rename(join(root, "ts/greet.ts"), join(root, "ts/hello.ts"));

    const status = await queryJson(root, ["status"]);
    assert.deepEqual(
      [(status.data as Json).stale, (status.data as Json).missing],
      [1, 2],
    );
    const drift = await query(root, ["verify"]);
    assert.equal(drift.code, 1, drift.stderr);
    assert.deepEqual(
      results<{ file_path: string; drift: string }>(parseJson(drift)).map((d) =>
        `${d.drift} ${d.file_path}`
      ),
      [
        "missing py/a.py",
        "changed py/b.py",
        "new py/e.py",
        "missing ts/greet.ts",
        "new ts/hello.ts",
      ],
    );

    const update = parseJson(await index(root)).result as Json;
    assert.deepEqual([update.parsed, update.removed], [3, 2]);
    const inSync = await query(root, ["verify"]);
    assert.equal(inSync.code, 0, inSync.stdout);

    const loads = await queryJson(root, ["find", "load_b"]);
    assert.equal(results(loads).length, 1);
    const gone = await query(root, ["find", "load"]);
    assert.equal(errorOf(gone).code, "MAG-REF-001");
    const greet = await queryJson(root, ["find", "greet"]);
    assert.deepEqual(results<{ span: Span }>(greet).map((r) => r.span.file_path), ["ts/hello.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("symbols: a file with syntax errors is indexed as far as its tree allows and reported", async () => {
  const root = await makeTree({
    "broken.c":
      "int good(void) { return 1; }\nint bad(void) { return ( ; }\nint after(void) { return good(); }\n",
  });
  try {
    const run = await index(root);
    assert.equal(run.code, 0, run.stderr);
    const envelope = parseJson(run) as { diagnostics: { code: string; file?: string }[] };
    assert.ok(
      envelope.diagnostics.some((d) => d.code === "MAG-AST-001" && d.file === "broken.c"),
      JSON.stringify(envelope.diagnostics),
    );
    const found = await queryJson(root, ["find", "good"]);
    assert.equal(results(found).length, 1);
    const status = await queryJson(root, ["status"]);
    assert.equal((status.data as Json).parse_error_files, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("symbols: queries before any index, and index without write permission, are refused", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const none = await query(root, ["find", "helper"]);
    assert.equal(none.code, 3);
    const error = errorOf(none);
    assert.equal(error.code, "MAG-IO-013");
    assert.match(error.remediation ?? "", /llm-symbols index/);
    const readOnly = await query(root, ["index"]);
    assert.equal(readOnly.code, 4, readOnly.stdout);
    assert.equal(errorOf(readOnly).code, "MAG-PERM-002");
    assert.throws(() => Deno.statSync(join(root, ".llm", "index.db")));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("symbols: a --db that is not SQLite, another program's, or newer is refused and left as it was", async (t) => {
  const root = await makeTree({ ...FIXTURE, ".llm/keep": "" });
  const llm = join(root, ".llm");
  const bytesOf = (name: string) => Deno.readFileSync(join(llm, name));
  try {
    await t.step("not SQLite", async () => {
      Deno.writeTextFileSync(
        join(llm, "notes.db"),
        "these are my notes, not a database\n".repeat(10),
      );
      const before = bytesOf("notes.db");
      for (
        const run of [
          index(root, ["--db", ".llm/notes.db"]),
          query(root, ["status", "--db", ".llm/notes.db"]),
        ]
      ) {
        const result = await run;
        assert.equal(result.code, 3, result.stdout);
        assert.equal(errorOf(result).code, "MAG-IO-010");
      }
      assert.deepEqual(bytesOf("notes.db"), before);
    });

    await t.step("SQLite of another program", async () => {
      const other = new DatabaseSync(join(llm, "other.db"));
      other.exec(
        "CREATE TABLE accounts(id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO accounts(owner) VALUES ('me')",
      );
      other.close();
      const before = bytesOf("other.db");
      const result = await index(root, ["--db", ".llm/other.db"]);
      assert.equal(result.code, 3, result.stdout);
      assert.equal(errorOf(result).code, "MAG-IO-011");
      assert.deepEqual(bytesOf("other.db"), before);
    });

    await t.step("a newer index version", async () => {
      const made = await index(root, ["--db", ".llm/newer.db"]);
      assert.equal(made.code, 0, made.stdout);
      const db = new DatabaseSync(join(llm, "newer.db"));
      db.exec("PRAGMA user_version = 99");
      db.exec("PRAGMA journal_mode = DELETE");
      db.close();
      const before = bytesOf("newer.db");
      for (
        const run of [
          index(root, ["--db", ".llm/newer.db"]),
          query(root, ["find", "helper", "--db", ".llm/newer.db"]),
        ]
      ) {
        const result = await run;
        assert.equal(result.code, 3, result.stdout);
        const error = errorOf(result);
        assert.equal(error.code, "MAG-IO-012");
        assert.match(error.remediation ?? "", /Upgrade llm-symbols/);
      }
      assert.deepEqual(bytesOf("newer.db"), before);
    });

    await t.step("outside the root, or through a symbolic link", async () => {
      const outside = await index(root, ["--db", "../elsewhere.db"]);
      assert.equal(outside.code, 4, outside.stdout);
      assert.equal(errorOf(outside).code, "MAG-PERM-010");
      const target = await Deno.makeTempDir();
      Deno.symlinkSync(target, join(root, "linked"));
      const linked = await index(root, ["--db", "linked/index.db"]);
      assert.equal(linked.code, 4, linked.stdout);
      assert.equal(errorOf(linked).code, "MAG-PERM-010");
      assert.deepEqual([...Deno.readDirSync(target)], []);
      await Deno.remove(target);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** A tree of `count` C files, each defining two functions and calling the previous file's. */
function manyFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const call = i > 0 ? `f${i - 1}(x)` : "x";
    files[`src/d${i % 20}/f${i}.c`] = `int f${i}(int x) { return ${call} + g${i}(x); }\n` +
      `static int g${i}(int x) { return x * ${i}; }\n`;
  }
  return files;
}

Deno.test("symbols: two concurrent index runs leave a complete, consistent index", async () => {
  const root = await makeTree(manyFiles(300));
  try {
    const [first, second] = await Promise.all([index(root), index(root)]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    const status = await queryJson(root, ["status"]);
    const data = status.data as Json;
    assert.deepEqual([data.files, data.symbols, data.fresh], [300, 600, 300]);
    const verify = await query(root, ["verify"]);
    assert.equal(verify.code, 0, verify.stdout);
    const callers = await queryJson(root, ["callers", "f10"]);
    assert.deepEqual(results<Use>(callers).map((use) => use.caller?.name), ["f11"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("symbols: kill -9 during index leaves an index that status reads and the next index repairs", async () => {
  const total = 3000;
  const root = await makeTree(manyFiles(total));
  try {
    const child = new Deno.Command("deno", {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        `--config=${join(REPO, "deno.json")}`,
        "--allow-read",
        `--allow-write=${join(root, ".llm")}`,
        join(REPO, ENTRY),
        "index",
      ],
      cwd: root,
      stdout: "null",
      stderr: "null",
    }).spawn();
    // Kill once some batches are committed (the index file has grown past its first pages).
    const db = join(root, ".llm", "index.db");
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const wal = (() => {
        try {
          return Deno.statSync(db + "-wal").size;
        } catch {
          return 0;
        }
      })();
      if (wal > 256 * 1024) break;
    }
    child.kill("SIGKILL");
    const { signal } = await child.status;
    assert.equal(signal, "SIGKILL", "the index run was still running when killed");

    const status = await queryJson(root, ["status"]);
    const files = (status.data as Json).files as number;
    assert.ok(files < total, `${files} files indexed before the kill`);
    const repair = await index(root);
    assert.equal(repair.code, 0, repair.stdout + repair.stderr);
    const result = parseJson(repair).result as Json;
    // Kept: the files whose facts and chunks were both written (a cold run writes the chunks
    // on a thread of its own, a few batches behind the facts); the rest are extracted again.
    assert.ok((result.unchanged as number) <= files, `${result.unchanged} of ${files} kept`);
    assert.equal((result.unchanged as number) + (result.parsed as number), total);
    const verify = await query(root, ["verify"]);
    assert.equal(verify.code, 0, verify.stdout);
    const after = await queryJson(root, ["status"]);
    assert.deepEqual([(after.data as Json).files, (after.data as Json).symbols], [
      total,
      2 * total,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
