/**
 * llm-transform through its tool definition (as the MCP server calls it) on real files: span
 * edits, guarded replacements, dry runs, undo, and every bad input refused with its code and
 * no file changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256 } from "../schema/mod.ts";
import { makeTree } from "./helpers.ts";
import {
  editResult,
  execute,
  journalIds,
  manifestOf,
  snapshot,
  temporaries,
} from "./transform_helpers.ts";

const encoder = new TextEncoder();

async function withTree(
  files: Record<string, string | Uint8Array>,
  body: (root: string) => Promise<void>,
): Promise<void> {
  const root = await makeTree(files);
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a span edit changes only its bytes: BOM, CRLF, invalid UTF-8, no final newline and mode kept", async () => {
  const before = new Uint8Array([
    0xef,
    0xbb,
    0xbf, // BOM
    ...encoder.encode("let a = 1;\r\nlet b = 2;\r\n"),
    0xff,
    0xfe, // invalid UTF-8
    ...encoder.encode("\r\nend"), // no final newline
  ]);
  await withTree({ "src/x.ts": before }, async (root) => {
    await Deno.chmod(join(root, "src/x.ts"), 0o751);
    const start = 3 + "let a = 1;\r\nlet ".length;
    const outcome = await execute(root, {
      file: "src/x.ts",
      span: `${start}:${start + 1}`,
      with: "renamed",
      expect: sha256(before),
    });
    assert.equal(outcome.code, 0, outcome.envelope.message);
    assert.equal(outcome.envelope.operation_type, "edit");
    const after = await Deno.readFile(join(root, "src/x.ts"));
    const expected = new Uint8Array([
      ...before.subarray(0, start),
      ...encoder.encode("renamed"),
      ...before.subarray(start + 1),
    ]);
    assert.deepEqual(after, expected);
    assert.equal((await Deno.stat(join(root, "src/x.ts"))).mode! & 0o777, 0o751);
    const result = editResult(outcome);
    assert.equal(result.applied_count, 1);
    assert.deepEqual(result.files[0], {
      file_path: "src/x.ts",
      status: "changed",
      edit_count: 1,
      total_byte_shift: 6,
      file_checksum_before: sha256(before),
      final_checksum: sha256(expected),
    });
    const edit = result.edits[0];
    assert.equal(edit.old_span?.start_line, 2);
    assert.equal(edit.old_span?.start_col, 4);
    assert.deepEqual(
      [edit.new_span?.byte_start, edit.new_span?.byte_end, edit.new_span?.end_col],
      [start, start + 7, 11],
    );
    assert.equal(edit.checksum_before, sha256("b"));
    assert.equal(edit.checksum_after, sha256("renamed"));
  });
});

Deno.test("a multi-file plan applies every edit, reports new spans, and journals backups", async () => {
  const files = { "a.txt": "alpha beta gamma\n", "b/c.txt": "één twee\n" };
  await withTree(files, async (root) => {
    const plan = {
      file_checksums: { "a.txt": sha256(files["a.txt"]), "b/c.txt": sha256(files["b/c.txt"]) },
      edits: [
        {
          file: "a.txt",
          byte_start: 6,
          byte_end: 10,
          replacement: "BETA",
          checksum_before: sha256("beta"),
        },
        { file_path: "a.txt", byte_start: 0, byte_end: 0, new_text: "> " }, // insertion
        { file_path: "a.txt", byte_start: 11, byte_end: 16, new_text: "" }, // deletion
        { file_path: "b/c.txt", byte_start: 0, byte_end: 5, new_text: "een" },
      ],
    };
    await Deno.writeTextFile(join(root, "plan.json"), JSON.stringify(plan));
    const outcome = await execute(root, { plan: "plan.json" });
    assert.equal(outcome.code, 0, outcome.envelope.message);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "> alpha BETA \n");
    assert.equal(await Deno.readTextFile(join(root, "b/c.txt")), "een twee\n");
    const result = editResult(outcome);
    assert.deepEqual(
      result.edits.map((edit) => [edit.file_path, edit.index, edit.status]),
      [["a.txt", 1, "applied"], ["a.txt", 0, "applied"], ["a.txt", 2, "applied"], [
        "b/c.txt",
        3,
        "applied",
      ]],
    );
    const text = await Deno.readFile(join(root, "a.txt"));
    for (const edit of result.edits.filter((e) => e.file_path === "a.txt")) {
      const span = edit.new_span!;
      const expected = ["BETA", "> ", ""][edit.index];
      assert.equal(
        new TextDecoder().decode(text.subarray(span.byte_start, span.byte_end)),
        expected,
      );
    }
    assert.deepEqual(result.files.map((f) => [f.file_path, f.total_byte_shift]), [
      ["a.txt", -3],
      ["b/c.txt", -2],
    ]);
    const id = outcome.envelope.execution_id;
    assert.equal(result.journal, `.llm/journal/${id}`);
    const manifest = await manifestOf(root, id);
    assert.equal(manifest.state, "committed");
    for (const file of manifest.files) {
      const backup = await Deno.readFile(join(root, result.journal!, file.backup!));
      assert.equal(sha256(backup), file.checksum_before);
    }
    assert.deepEqual(await temporaries(root), []);
  });
});

/** Runs `args`, expects `code` and exit `exit`, and checks that no file changed. */
async function refused(
  root: string,
  args: Record<string, unknown>,
  code: string,
  exit: number,
): Promise<ReturnType<typeof execute> extends Promise<infer T> ? T : never> {
  const before = await snapshot(root);
  const outcome = await execute(root, args);
  assert.equal(outcome.envelope.status, "error", JSON.stringify(outcome.envelope));
  assert.equal(outcome.envelope.error?.code, code, JSON.stringify(outcome.envelope.error));
  assert.equal(outcome.code, exit);
  assert.deepEqual(await snapshot(root), before, "a file changed");
  assert.deepEqual(await temporaries(root), []);
  return outcome;
}

Deno.test("bad spans are refused with their code, the file untouched", async () => {
  const text = "héllo wörld\n"; // é and ö are 2 bytes
  await withTree({ "a.txt": text }, async (root) => {
    const edit = (fields: Record<string, unknown>) => ({
      edits: [{ file_path: "a.txt", byte_start: 0, byte_end: 1, new_text: "x", ...fields }],
    });
    const outside = await refused(root, edit({ byte_start: 10, byte_end: 99 }), "LMT-V-003", 2);
    assert.match(outside.envelope.error!.message, /length 14 bytes/);
    await refused(root, edit({ byte_start: 5, byte_end: 3 }), "LMT-V-004", 2);
    const mid = await refused(root, edit({ byte_start: 2, byte_end: 3 }), "LMT-V-005", 2);
    assert.match(mid.envelope.error!.note!, /boundaries are 1 and 3/);
    const span = await refused(
      root,
      edit({ expected_checksum: sha256("nope") }),
      "LMT-V-002",
      3,
    );
    assert.match(span.envelope.error!.note!, new RegExp(`actual +${sha256("h")}`));
    const overlap = await refused(
      root,
      {
        edits: [
          { file_path: "a.txt", byte_start: 0, byte_end: 4, new_text: "a" },
          { file_path: "a.txt", byte_start: 3, byte_end: 6, new_text: "b" },
        ],
      },
      "LMT-V-006",
      2,
    );
    assert.match(overlap.envelope.error!.message, /overlaps edit 0/);
    const checksum = await refused(
      root,
      {
        ...edit({}),
        file_checksums: { "a.txt": sha256("other") },
      },
      "LMT-V-001",
      3,
    );
    assert.match(checksum.envelope.error!.note!, new RegExp(`actual +${sha256(text)}`));
    assert.equal((await journalIds(root)).length, 0, "a refused edit wrote a journal");
  });
});

Deno.test("every problem of a plan is reported, each edit with its own status", async () => {
  await withTree({ "a.txt": "0123456789", "b.txt": "abc" }, async (root) => {
    const outcome = await refused(
      root,
      {
        edits: [
          { file_path: "a.txt", byte_start: 0, byte_end: 1, new_text: "x" },
          { file_path: "a.txt", byte_start: 20, byte_end: 21, new_text: "y" },
          { file_path: "b.txt", byte_start: 0, byte_end: 1, new_text: "z" },
          { file_path: "missing.txt", byte_start: 0, byte_end: 0, new_text: "w" },
        ],
      },
      "LMT-V-003",
      2,
    );
    const result = editResult(outcome);
    assert.deepEqual(result.edits.map((e) => [e.file_path, e.status, e.code ?? ""]), [
      ["a.txt", "skipped", "LMT-V-003"],
      ["a.txt", "error", "LMT-V-003"],
      ["b.txt", "skipped", "LMT-V-003"],
      ["missing.txt", "error", "LMT-IO-010"],
    ]);
    assert.deepEqual([result.applied_count, result.skipped_count, result.error_count], [0, 2, 2]);
    assert.deepEqual(
      outcome.envelope.diagnostics.map((d) => d.code),
      ["LMT-V-003", "LMT-IO-010"],
    );
  });
});

Deno.test("a multi-file plan whose last file fails its checksum leaves every file identical", async () => {
  const files = { "1.txt": "one\n", "2.txt": "two\n", "3.txt": "three\n" };
  await withTree(files, async (root) => {
    await refused(
      root,
      {
        file_checksums: {
          "1.txt": sha256(files["1.txt"]),
          "2.txt": sha256(files["2.txt"]),
          "3.txt": sha256("three, as it was before someone edited it\n"),
        },
        edits: Object.keys(files).map((file) => ({
          file_path: file,
          byte_start: 0,
          byte_end: 1,
          new_text: "X",
        })),
      },
      "LMT-V-001",
      3,
    );
  });
});

Deno.test("missing files, directories and paths outside the root are refused", async () => {
  await withTree({ "a.txt": "a", "dir/b.txt": "b" }, async (root) => {
    const outside = await Deno.makeTempFile();
    try {
      await Deno.symlink(outside, join(root, "link.txt"));
      const edit = (file: string) => ({ file, span: "0:0", with: "x" });
      await refused(root, edit("gone.txt"), "LMT-IO-010", 2);
      await refused(root, edit("dir"), "LMT-IO-012", 2);
      await refused(root, edit("../escape.txt"), "LMT-PERM-010", 4);
      await refused(root, edit(outside), "LMT-PERM-010", 4);
      const link = await refused(root, edit("link.txt"), "LMT-PERM-010", 4);
      assert.match(link.envelope.error!.message, /symbolic link/);
      assert.equal(await Deno.readTextFile(outside), "");
    } finally {
      await Deno.remove(outside);
    }
  });
});

Deno.test("a symbolic link inside the root is edited through, and stays a link", async () => {
  await withTree({ "real.txt": "old text\n" }, async (root) => {
    await Deno.symlink("real.txt", join(root, "alias.txt"));
    const outcome = await execute(root, { file: "alias.txt", old: "old", new: "new" });
    assert.equal(outcome.code, 0, outcome.envelope.message);
    assert.equal(await Deno.readTextFile(join(root, "real.txt")), "new text\n");
    assert.ok((await Deno.lstat(join(root, "alias.txt"))).isSymlink);
    assert.equal(editResult(outcome).files[0].file_path, "alias.txt");
  });
});

Deno.test("guarded replace: exactly one occurrence, else candidates or the closest line", async () => {
  const text = "fn main() {\r\n    let x = 1;\r\n    let y = x;\r\n}\r\n";
  await withTree({ "m.rs": text }, async (root) => {
    const none = await refused(root, { file: "m.rs", old: "let z = 1;", new: "" }, "LMT-V-007", 3);
    assert.equal(none.envelope.error!.line, 2);
    assert.match(none.envelope.error!.note!, /closest line 2 .*" {4}let x = 1;"/);
    const crlf = await refused(
      root,
      { file: "m.rs", old: "let x = 1;\n    let y", new: "" },
      "LMT-V-007",
      3,
    );
    assert.match(crlf.envelope.error!.note!, /CRLF/);
    const many = await refused(root, { file: "m.rs", old: "let", new: "const" }, "LMT-V-008", 3);
    const candidates = editResult(many).candidates!;
    assert.deepEqual(candidates.map((span) => [span.start_line, span.start_col]), [[2, 4], [3, 4]]);
    assert.match(many.envelope.error!.remediation!, /--count 2 or --all/);
    await refused(root, { file: "m.rs", old: "let", new: "c", count: 3 }, "LMT-V-011", 3);
    await refused(
      root,
      { file: "m.rs", old: "main", new: "start", expect: sha256("stale") },
      "LMT-V-001",
      3,
    );

    // `const x = 1;` is not Rust (a const needs a type): the default syntax gate would refuse it.
    const counted = await execute(root, {
      file: "m.rs",
      old: "let",
      new: "const",
      count: 2,
      validate: "none",
    });
    assert.equal(counted.code, 0, counted.envelope.message);
    assert.equal(counted.envelope.operation_type, "replace");
    const after = await Deno.readTextFile(join(root, "m.rs"));
    assert.equal(after, text.replaceAll("let", "const"));
    const result = editResult(counted);
    assert.deepEqual(result.edits.map((e) => [e.old_span!.byte_start, e.new_span!.byte_start]), [
      [17, 17],
      [33, 35],
    ]);

    const once = await execute(root, {
      file: "m.rs",
      old: "main",
      new: "start",
      expect: sha256(after),
    });
    assert.equal(once.code, 0, once.envelope.message);
    const all = await execute(root, { file: "m.rs", old: "\r\n", new: "\n", all: true });
    assert.equal(editResult(all).applied_count, 4);
    assert.equal(
      await Deno.readTextFile(join(root, "m.rs")),
      "fn start() {\n    const x = 1;\n    const y = x;\n}\n",
    );
  });
});

Deno.test("a no-op edit changes nothing, writes no journal and exits 0", async () => {
  await withTree({ "a.txt": "same\n" }, async (root) => {
    const outcome = await execute(root, { file: "a.txt", old: "same", new: "same" });
    assert.equal(outcome.code, 0);
    assert.equal(outcome.envelope.status, "ok");
    const result = editResult(outcome);
    assert.deepEqual([result.applied_count, result.skipped_count], [0, 1]);
    assert.equal(result.edits[0].status, "unchanged");
    assert.equal(result.journal, undefined);
    assert.deepEqual(await journalIds(root), []);
  });
});

Deno.test("--dry-run shows a unified diff, writes nothing, exits 1 with changes and 0 without", async () => {
  await withTree({ "a.txt": "one\ntwo\nthree\n" }, async (root) => {
    const before = await snapshot(root);
    const pending = await execute(root, { file: "a.txt", old: "two", new: "2", dry_run: true });
    assert.equal(pending.code, 1);
    assert.equal(pending.envelope.status, "ok");
    const result = editResult(pending);
    assert.equal(result.dry_run, true);
    assert.deepEqual([result.pending_count, result.applied_count], [1, 0]);
    assert.equal(result.edits[0].status, "pending");
    assert.equal(result.files[0].final_checksum, sha256("one\n2\nthree\n"));
    assert.equal(
      result.diff,
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
    );
    assert.deepEqual(await snapshot(root), before);
    assert.deepEqual(await journalIds(root), []);
    const none = await execute(root, { file: "a.txt", old: "two", new: "two", dry_run: true });
    assert.equal(none.code, 0);
    assert.equal(editResult(none).diff, undefined);
  });
});

Deno.test("--undo restores the exact prior bytes, once, and only if the files are unchanged", async () => {
  await withTree({ "a.txt": "version 1\r\n", "b.txt": "keep\n" }, async (root) => {
    const edit = await execute(root, {
      edits: [
        { file_path: "a.txt", byte_start: 8, byte_end: 9, new_text: "2" },
        { file_path: "b.txt", byte_start: 0, byte_end: 4, new_text: "kept" },
      ],
    });
    const id = edit.envelope.execution_id;
    const preview = await execute(root, { undo: id, dry_run: true });
    assert.equal(preview.code, 1);
    assert.match((preview.envelope.result as { diff: string }).diff, /-version 2\r\n\+version 1/);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "version 2\r\n");

    const undo = await execute(root, { undo: id });
    assert.equal(undo.code, 0, undo.envelope.message);
    assert.equal(undo.envelope.operation_type, "undo");
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "version 1\r\n");
    assert.equal(await Deno.readTextFile(join(root, "b.txt")), "keep\n");
    assert.equal((await manifestOf(root, id)).state, "undone");

    const again = await execute(root, { undo: id });
    assert.equal(again.envelope.error?.code, "LMT-REF-002");
    assert.equal(again.code, 3);

    // The undo is itself journaled: undoing it redoes the edit.
    const redo = await execute(root, { undo: undo.envelope.execution_id });
    assert.equal(redo.code, 0, redo.envelope.message);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "version 2\r\n");

    await Deno.writeTextFile(join(root, "b.txt"), "edited by hand\n");
    const conflict = await execute(root, { undo: redo.envelope.execution_id });
    assert.equal(conflict.envelope.error?.code, "LMT-V-010");
    assert.equal(conflict.code, 3);
    assert.match(conflict.envelope.error!.note!, /b\.txt/);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "version 2\r\n");

    const unknown = await execute(root, { undo: crypto.randomUUID() });
    assert.equal(unknown.envelope.error?.code, "LMT-REF-001");
    const traversal = await execute(root, { undo: "../../etc" });
    assert.equal(traversal.envelope.error?.code, "LMT-REF-001");
  });
});

Deno.test("inline MCP arguments: edits as an array with legacy names, checksums as an object", async () => {
  await withTree({ "a.txt": "abc" }, async (root) => {
    const outcome = await execute(root, {
      edits: [{ file: "a.txt", byte_start: 1, byte_end: 2, new_content: "B" }],
      file_checksums: { "./a.txt": sha256("abc") },
    });
    assert.equal(outcome.code, 0, outcome.envelope.message);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "aBc");
    const bad = await execute(root, { edits: [{ file: "a.txt", byte_start: -1 }] });
    assert.equal(bad.envelope.error?.code, "LMT-ARG-002");
    assert.equal(bad.code, 2);
    assert.deepEqual(bad.envelope.error!.note!.split("\n").map((line) => line.split(":")[0]), [
      "$.edits[0].byte_start",
      "$.edits[0].byte_end",
      "$.edits[0].new_text",
    ]);
  });
});

Deno.test("conflicting or incomplete arguments are refused before anything is read", async () => {
  await withTree({ "a.txt": "abc" }, async (root) => {
    for (
      const args of [
        {},
        { file: "a.txt" },
        { file: "a.txt", span: "1-2", with: "x" },
        { file: "a.txt", span: "0:1" },
        { file: "a.txt", old: "a" },
        { file: "a.txt", old: "", new: "x" },
        { file: "a.txt", old: "a", new: "b", all: true, count: 2 },
        { file: "a.txt", old: "a", new: "b", expect: "md5:abc" },
        { plan: "p.json", file: "a.txt" },
        { recover: true, file: "a.txt" },
        { undo: "x", dry_run: true, old: "a" },
        { file_checksums: "{}" },
      ]
    ) {
      const outcome = await execute(root, args);
      assert.equal(outcome.envelope.error?.code, "LMT-ARG-002", JSON.stringify(args));
      assert.equal(outcome.code, 2);
    }
    const json = await execute(root, { edits: '[{"file_path": "a.txt",]' });
    assert.equal(json.envelope.error?.code, "LMT-ARG-010");
    assert.equal(json.envelope.error?.line, 1);
  });
});

Deno.test("--expect of a span edit accepts the span's checksum as well as the file's", async () => {
  await withTree({ "a.txt": "keep THIS keep\n" }, async (root) => {
    const outcome = await execute(root, {
      file: "a.txt",
      span: "5:9",
      with: "that",
      expect: sha256("THIS"),
    });
    assert.equal(outcome.code, 0, outcome.envelope.message);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "keep that keep\n");
    const stale = await refused(
      root,
      { file: "a.txt", span: "5:9", with: "what", expect: sha256("THIS") },
      "LMT-V-001",
      3,
    );
    assert.match(stale.envelope.error!.note!, new RegExp(`span +${sha256("that")}`));
  });
});
