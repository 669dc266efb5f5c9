/**
 * llm-transform as a real `deno run --no-prompt` subprocess with scoped permissions: the
 * permission contract, plans on standard input, bad JSON, and the crash cases — a process
 * SIGKILLed between two renames (blocked on a FIFO in its journal's progress log) is rolled
 * back by `--recover`; one killed after its last rename is finished; a file another process
 * changes while the tool waits for the commit lock is detected and nothing is written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CompactTransformEnvelopeSchema,
  type MutationEnvelope,
  type RecoverResult,
  sha256,
  type TransformOutput,
  type TransformResult,
} from "../schema/mod.ts";
import { transformTool } from "../tools/transform/tool.ts";
import { assertValidEnvelope, makeTree, parseJson, runEntry, spawnEntry } from "./helpers.ts";
import {
  exists,
  holdCommitLock,
  manifestOf,
  snapshot,
  temporaries,
  until,
} from "./transform_helpers.ts";

const ENTRY = "tools/transform/main.ts";

function scoped(root: string): string[] {
  return [`--allow-read=${root}`, `--allow-write=${root}`];
}

interface Run {
  code: number;
  stderr: string;
  envelope: MutationEnvelope<TransformOutput>;
}

async function run(
  root: string,
  args: string[],
  stdin?: string,
  permissions: string[] = scoped(root),
): Promise<Run> {
  const result = await runEntry(ENTRY, args, { cwd: root, permissions, stdin });
  const envelope = parseJson(result);
  assertValidEnvelope(transformTool, envelope);
  return {
    code: result.code,
    stderr: result.stderr,
    envelope: envelope as unknown as MutationEnvelope<TransformOutput>,
  };
}

function recoverResult(run: Run): RecoverResult {
  return run.envelope.result as RecoverResult;
}

/** Starts the tool without waiting for it, with the same flags {@linkcode runEntry} gives. */
function spawn(root: string, args: string[], stdin: string): Deno.ChildProcess {
  return spawnEntry(ENTRY, args, { cwd: root, permissions: scoped(root), stdin });
}

async function stillRunning(child: Deno.ChildProcess, ms: number): Promise<boolean> {
  const timer = new Promise<"running">((resolve) => setTimeout(() => resolve("running"), ms));
  return (await Promise.race([child.status.then(() => "ended"), timer])) === "running";
}

const FILES = { "a.txt": "one\n", "b.txt": "two\n", "c.txt": "three\n" };

function upperPlan(id: string, names: string[] = Object.keys(FILES)): string {
  const files = FILES as Record<string, string>;
  return JSON.stringify({
    execution_id: id,
    file_checksums: Object.fromEntries(names.map((name) => [name, sha256(files[name])])),
    edits: names.map((name) => ({
      file_path: name,
      byte_start: 0,
      byte_end: files[name].length - 1,
      new_text: files[name].trim().toUpperCase(),
    })),
  });
}

/**
 * Runs a plan over `names` and SIGKILLs the process right after it renamed the first file: the
 * test holds the commit lock until the journal exists, puts a FIFO where the progress log goes,
 * and lets go; the process renames the first file, then blocks opening the FIFO.
 */
async function killAfterFirstRename(root: string, names: string[]): Promise<string> {
  const id = crypto.randomUUID();
  const lock = await holdCommitLock(root);
  const child = spawn(root, ["--plan", "-"], upperPlan(id, names));
  const lastTemp = join(root, `.llm-tmp.${id}.${names.length - 1}`);
  await until(() => exists(lastTemp), "the temporary files");
  const fifo = await new Deno.Command("mkfifo", {
    args: [join(root, ".llm", "journal", id, "progress")],
  }).output();
  assert.ok(fifo.success, "mkfifo");
  lock.close();
  const first = names[0] as keyof typeof FILES;
  await until(
    async () => (await Deno.readTextFile(join(root, first))) === FILES[first].toUpperCase(),
    "the first rename",
  );
  assert.ok(await stillRunning(child, 300), "the process should be blocked on the FIFO");
  for (const name of names.slice(1)) {
    assert.equal(
      await Deno.readTextFile(join(root, name)),
      (FILES as Record<string, string>)[name],
    );
  }
  child.kill("SIGKILL");
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL");
  await child.stdout.cancel();
  await child.stderr.cancel();
  return id;
}

Deno.test("works with --no-prompt --allow-read=<root> --allow-write=<root> and nothing else", async () => {
  const root = await makeTree({ "src/a.ts": "const a = 1;\n" });
  try {
    const { code, envelope } = await run(root, ["--file", "src/a.ts", "--old", "1", "--new", "2"]);
    assert.equal(code, 0, JSON.stringify(envelope));
    assert.equal(envelope.status, "ok");
    assert.equal(envelope.workspace, root);
    assert.equal(await Deno.readTextFile(join(root, "src/a.ts")), "const a = 2;\n");
    const undo = await run(root, ["--undo", envelope.execution_id]);
    assert.equal(undo.code, 0, JSON.stringify(undo.envelope));
    assert.equal(await Deno.readTextFile(join(root, "src/a.ts")), "const a = 1;\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("missing write permission or a path outside the root is LMT-PERM-*, exit 4, no change", async () => {
  const root = await makeTree({ "a.txt": "text\n" });
  const outside = await makeTree({ "o.txt": "outside\n" });
  try {
    const before = await snapshot(root);
    const readOnly = await run(
      root,
      ["--file", "a.txt", "--old", "text", "--new", "x"],
      undefined,
      [
        `--allow-read=${root}`,
      ],
    );
    assert.equal(readOnly.code, 4);
    assert.equal(readOnly.envelope.error!.code, "LMT-PERM-002");
    assert.match(readOnly.envelope.error!.remediation!, /--allow-write=/);
    assert.doesNotMatch(readOnly.stderr, /\n\s+at /, "no stack trace");

    const preview = await run(
      root,
      ["--file", "a.txt", "--old", "text", "--new", "x", "--dry-run"],
      undefined,
      [`--allow-read=${root}`],
    );
    assert.equal(preview.code, 1, "a dry run needs read permission only");

    const escape = await run(root, ["--file", join(outside, "o.txt"), "--old", "o", "--new", "x"]);
    assert.equal(escape.code, 4);
    assert.equal(escape.envelope.error!.code, "LMT-PERM-010");

    const elsewhere = await run(root, [
      "--root",
      outside,
      "--file",
      "o.txt",
      "--old",
      "o",
      "--new",
      "x",
    ]);
    assert.equal(elsewhere.code, 4);
    assert.equal(elsewhere.envelope.error!.code, "LMT-PERM-001");

    assert.deepEqual(await snapshot(root), before);
    assert.equal(await Deno.readTextFile(join(outside, "o.txt")), "outside\n");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("plans on standard input: applied, or refused with the JSON position or JSON paths", async () => {
  const root = await makeTree({ "a.txt": "hello\n" });
  try {
    const plan = { edits: [{ file: "a.txt", byte_start: 0, byte_end: 5, replacement: "howdy" }] };
    const ok = await run(root, ["--plan", "-"], JSON.stringify(plan));
    assert.equal(ok.code, 0, JSON.stringify(ok.envelope));
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "howdy\n");

    const broken = await run(
      root,
      ["--plan", "-"],
      '{\n  "edits": [\n    {"file": "a.txt",}\n  ]\n}',
    );
    assert.equal(broken.code, 2);
    assert.equal(broken.envelope.error!.code, "LMT-ARG-010");
    assert.deepEqual([broken.envelope.error!.line, broken.envelope.error!.column], [3, 21]);

    const invalid = await run(
      root,
      ["--plan", "-"],
      JSON.stringify({ edits: [{ file: "a.txt", byte_start: "0", byte_end: 1 }, {}] }),
    );
    assert.equal(invalid.code, 2);
    assert.equal(invalid.envelope.error!.code, "LMT-ARG-002");
    const paths = invalid.envelope.error!.note!.split("\n").map((line) => line.split(":")[0]);
    assert.deepEqual(paths, [
      "$.edits[0].byte_start",
      "$.edits[0].new_text",
      "$.edits[1].file_path",
      "$.edits[1].byte_start",
      "$.edits[1].byte_end",
      "$.edits[1].new_text",
    ]);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "howdy\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("--format text prints the diff of a dry run; --explain knows the transform codes", async () => {
  const root = await makeTree({ "a.txt": "x = 1\n" });
  try {
    const result = await runEntry(
      ENTRY,
      ["--file", "a.txt", "--old", "1", "--new", "2", "--dry-run", "--format", "text"],
      { cwd: root, permissions: [`--allow-read=${root}`] },
    );
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /^--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,1 \+1,1 @@\n-x = 1\n\+x = 2\n/,
    );
    assert.match(result.stdout, /pending +a\.txt \(1 edit\(s\), \+0 bytes\)/);
    const explained = await runEntry(ENTRY, ["--explain", "LMT-V-009"], { permissions: [] });
    assert.equal(explained.code, 0);
    assert.equal(JSON.parse(explained.stdout).code, "LMT-V-009");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a process SIGKILLed between two renames is rolled back by --recover", async () => {
  const root = await makeTree(FILES);
  try {
    const before = await snapshot(root);
    const id = await killAfterFirstRename(root, ["a.txt", "b.txt", "c.txt"]);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "ONE\n");
    assert.equal((await manifestOf(root, id)).state, "committing");

    // Other runs warn about the interrupted operation until it is recovered.
    const other = await run(root, ["--file", "c.txt", "--old", "three", "--new", "3", "--dry-run"]);
    assert.equal(other.code, 1);
    assert.deepEqual(
      other.envelope.diagnostics.map((d) => [d.code, d.level]),
      [["LMT-REF-003", "warning"]],
    );

    const preview = await run(root, ["--recover", "--dry-run"]);
    assert.equal(preview.code, 1);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "ONE\n", "a dry run wrote");

    const recovered = await run(root, ["--recover"]);
    assert.equal(recovered.code, 0, JSON.stringify(recovered.envelope));
    assert.equal(recovered.envelope.operation_type, "recover");
    const result = recoverResult(recovered);
    assert.equal(result.count, 1);
    const journal = result.journals[0];
    assert.deepEqual([journal.execution_id, journal.state_found, journal.outcome], [
      id,
      "committing",
      "rolled_back",
    ]);
    assert.deepEqual(journal.files.map((f) => [f.file_path, f.action, f.temp_removed]), [
      ["a.txt", "restored", false],
      ["b.txt", "unchanged", true],
      ["c.txt", "unchanged", true],
    ]);
    assert.deepEqual(await snapshot(root), before);
    assert.deepEqual(await temporaries(root), []);
    assert.equal((await manifestOf(root, id)).state, "rolled_back");

    const again = await run(root, ["--recover"]);
    assert.equal(again.code, 0);
    assert.equal(recoverResult(again).count, 0);
    const undo = await run(root, ["--undo", id]);
    assert.equal(undo.envelope.error!.code, "LMT-REF-002");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("--recover leaves alone a file someone changed after the crash, and says so", async () => {
  const root = await makeTree(FILES);
  try {
    const id = await killAfterFirstRename(root, ["a.txt", "b.txt"]);
    await Deno.writeTextFile(join(root, "a.txt"), "hand-edited after the crash\n");
    const recovered = await run(root, ["--recover"]);
    assert.equal(recovered.code, 3);
    assert.equal(recovered.envelope.status, "partial");
    assert.equal(recovered.envelope.error!.code, "LMT-V-012");
    assert.equal(recovered.envelope.error!.file, "a.txt");
    assert.equal(recoverResult(recovered).journals[0].outcome, "conflicted");
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "hand-edited after the crash\n");
    assert.equal(await Deno.readTextFile(join(root, "b.txt")), "two\n");
    assert.equal((await manifestOf(root, id)).state, "committing", "kept for a later recovery");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a process SIGKILLed after its last rename is finished by --recover, then undoable", async () => {
  const root = await makeTree(FILES);
  try {
    const id = await killAfterFirstRename(root, ["b.txt"]);
    const recovered = await run(root, ["--recover"]);
    assert.equal(recovered.code, 0, JSON.stringify(recovered.envelope));
    assert.equal(recoverResult(recovered).journals[0].outcome, "finished");
    assert.equal(await Deno.readTextFile(join(root, "b.txt")), "TWO\n");
    assert.equal((await manifestOf(root, id)).state, "committed");
    const undo = await run(root, ["--undo", id]);
    assert.equal(undo.code, 0, JSON.stringify(undo.envelope));
    assert.equal(await Deno.readTextFile(join(root, "b.txt")), "two\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a process SIGKILLed before any rename leaves only temporary files, which --recover removes", async () => {
  const root = await makeTree(FILES);
  try {
    const before = await snapshot(root);
    const id = crypto.randomUUID();
    const lock = await holdCommitLock(root);
    const child = spawn(root, ["--plan", "-"], upperPlan(id));
    await until(() => exists(join(root, `.llm-tmp.${id}.2`)), "the temporary files");
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel();
    await child.stderr.cancel();
    lock.close();
    assert.equal((await temporaries(root)).length, 3);
    const recovered = await run(root, ["--recover"]);
    assert.equal(recovered.code, 0, JSON.stringify(recovered.envelope));
    const journal = recoverResult(recovered).journals[0];
    assert.deepEqual([journal.state_found, journal.outcome], ["prepared", "rolled_back"]);
    assert.deepEqual(await snapshot(root), before);
    assert.deepEqual(await temporaries(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a file another process changes before the rename is detected and nothing is written", async () => {
  const root = await makeTree(FILES);
  try {
    const id = crypto.randomUUID();
    const lock = await holdCommitLock(root);
    const child = spawn(root, ["--plan", "-"], upperPlan(id));
    await until(() => exists(join(root, `.llm-tmp.${id}.2`)), "the temporary files");
    await Deno.writeTextFile(join(root, "c.txt"), "three, changed by another process\n");
    lock.close();
    const output = await child.output();
    const envelope = JSON.parse(new TextDecoder().decode(output.stdout));
    assertValidEnvelope(transformTool, envelope);
    assert.equal(output.code, 3);
    assert.equal(envelope.error.code, "LMT-V-009");
    assert.match(envelope.error.note, /^c\.txt: expected sha256:/);
    assert.equal((envelope.result as TransformResult).applied_count, 0);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "one\n");
    assert.equal(await Deno.readTextFile(join(root, "b.txt")), "two\n");
    assert.equal(
      await Deno.readTextFile(join(root, "c.txt")),
      "three, changed by another process\n",
    );
    assert.deepEqual(await temporaries(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cli: --format compact leaves the checksums out; the default JSON keeps them", async () => {
  const root = await makeTree({ "a.txt": "let x = 1;\n" });
  try {
    const compact = await runEntry(
      ENTRY,
      ["--file", "a.txt", "--old", "let", "--new", "const", "--format", "compact"],
      { cwd: root, permissions: scoped(root) },
    );
    assert.equal(compact.code, 0, compact.stderr);
    const answer = JSON.parse(compact.stdout);
    assert.ok(CompactTransformEnvelopeSchema.safeParse(answer).success);
    assert.ok(!compact.stdout.includes("sha256:"), compact.stdout);
    assert.deepEqual(answer.result.by_file[0].rows, [["applied", 1, 1, 0, 5, null]]);
    const full = await run(root, ["--undo", answer.execution_id]);
    assert.equal(full.code, 0);
    assert.match(JSON.stringify(full.envelope), /"final_checksum":"sha256:/);
    assert.equal(Deno.readTextFileSync(join(root, "a.txt")), "let x = 1;\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
