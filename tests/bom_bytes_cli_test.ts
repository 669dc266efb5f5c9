/**
 * Issue 29, item 5: no edit lands on the wrong byte of a file that starts with a UTF-8 BOM or
 * holds invalid UTF-8. The symbol extraction once decoded with a BOM-dropping decoder, so every
 * position in such a file was three bytes short and a rename wrote `ab =quxbar()`; a deletion
 * took the BOM with a first-line comment; `llm-validate` encoded the file's text again, so its
 * spans counted an invalid byte as three.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { FACTS_VERSION } from "../schema/symbol_index.ts";
import { makeTree, parseJson, runEntry } from "./helpers.ts";
import { editResult, refactorCli } from "./refactor_helpers.ts";

const BOM = [0xef, 0xbb, 0xbf];
const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("rename: a use in a file with a BOM is replaced at its own bytes, the BOM kept", async () => {
  const root = await makeTree({
    "a.py": "def foobar():\n    return 1\n",
    "b.py": new Uint8Array([...BOM, ...encode("import a\nab = a.foobar()\n")]),
  });
  try {
    const run = await refactorCli(root, ["rename", "foobar", "--to", "qux"]);
    assert.equal(run.code, 0, JSON.stringify(run.envelope));
    assert.equal(run.envelope.status, "ok");
    assert.deepEqual(
      await Deno.readFile(join(root, "b.py")),
      new Uint8Array([...BOM, ...encode("import a\nab = a.qux()\n")]),
    );
    assert.equal(await Deno.readTextFile(join(root, "a.py")), "def qux():\n    return 1\n");
    const use = editResult(run).edits.find((edit) => edit.file_path === "b.py")!;
    // "ab = a." is 7 bytes of line 2, which starts after the BOM and "import a\n".
    assert.deepEqual([use.byte_start, use.byte_end, use.start_line, use.start_col], [19, 25, 2, 7]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("delete: a doc comment on the first line of a file with a BOM goes, the BOM stays", async () => {
  const root = await makeTree({
    "a.py": new Uint8Array([
      ...BOM,
      ...encode("# doc of foo\ndef foo():\n    pass\n\ndef bar():\n    return 2\n"),
    ]),
  });
  try {
    const run = await refactorCli(root, ["delete", "foo"]);
    assert.equal(run.code, 0, JSON.stringify(run.envelope));
    assert.deepEqual(
      await Deno.readFile(join(root, "a.py")),
      new Uint8Array([...BOM, ...encode("\ndef bar():\n    return 2\n")]),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("validate: a span after a BOM and an invalid byte counts the bytes on disk", async () => {
  const root = await makeTree({
    "bad.py": new Uint8Array([
      ...BOM,
      ...encode("x = 1 # "),
      0xff,
      ...encode("\ndef f(:\n  pass\n"),
    ]),
  });
  try {
    const result = await runEntry("tools/validate/main.ts", ["bad.py", "--gates", "syntax"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    const diagnostics = parseJson(result).diagnostics as { span?: Record<string, number> }[];
    const span = diagnostics.find((diagnostic) => diagnostic.span)!.span!;
    // Line 2 starts after the BOM, "x = 1 # ", the invalid byte and the line feed (13 bytes).
    assert.deepEqual([span.byte_start, span.start_line, span.start_col], [19, 2, 6]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an index an older extraction wrote (facts version 1) is re-extracted before a rename", async () => {
  const root = await makeTree({
    "a.py": "def foobar():\n    return 1\n",
    "b.py": new Uint8Array([...BOM, ...encode("import a\nab = a.foobar()\n")]),
  });
  try {
    const indexed = await runEntry("tools/symbols/main.ts", ["index"], {
      cwd: root,
      permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
    });
    assert.equal(indexed.code, 0, indexed.stdout);
    // What the index of an older llm-symbols held: the use three bytes short (the BOM not
    // counted), the file's stamp and hash unchanged since.
    const db = new DatabaseSync(join(root, ".llm", "index.db"));
    db.exec("UPDATE meta SET value = '1' WHERE key = 'facts_version'");
    db.exec(
      "UPDATE refs SET byte_start = byte_start - 3, byte_end = byte_end - 3 WHERE name = 'foobar'",
    );
    db.close();
    const run = await refactorCli(root, ["rename", "foobar", "--to", "qux"]);
    assert.equal(run.code, 0, JSON.stringify(run.envelope));
    assert.deepEqual(
      await Deno.readFile(join(root, "b.py")),
      new Uint8Array([...BOM, ...encode("import a\nab = a.qux()\n")]),
    );
    const check = new DatabaseSync(join(root, ".llm", "index.db"), { readOnly: true });
    const version = check.prepare("SELECT value FROM meta WHERE key = 'facts_version'").get();
    check.close();
    assert.deepEqual({ ...version }, { value: String(FACTS_VERSION) });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
