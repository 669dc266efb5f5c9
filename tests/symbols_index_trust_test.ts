/**
 * The symbol index (`.llm/index.db`) is not trusted input (issue 29, items 9–11), end to end
 * through `llm-symbols` with the permission flags a user gives: a crafted row naming a file
 * outside the root is never served and `index` rebuilds the index; a damaged database is a coded
 * refusal (never an internal error) and `index` rebuilds it; a directory, FIFO or link in its
 * place is named and left alone (and a FIFO never hangs a run); a generated file's facts are
 * capped with a note. Fixtures are made from a real index of a small tree.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { makeTree, parseJson, runEntry, type RunResult, spawnEntry } from "./helpers.ts";

const ENTRY = "tools/symbols/main.ts";

const FILES: Record<string, string> = {
  "c/util.c": "int helper(int x) { return x + 1; }\n",
  "c/main.c": "int helper(int x);\nint main(void) { return helper(1); }\n",
};

/** A file outside the root that a crafted index points at: its name must never be served. */
const OUTSIDE_FILE = "int outside_secret(void) { return 42; }\n";

type Json = Record<string, unknown>;

function indexArgs(root: string) {
  return {
    cwd: root,
    permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
  };
}

function index(root: string): Promise<RunResult> {
  return runEntry(ENTRY, ["index"], indexArgs(root));
}

function query(root: string, args: string[]): Promise<RunResult> {
  return runEntry(ENTRY, args, { cwd: root, permissions: ["--allow-read"] });
}

function errorOf(result: RunResult): { code: string; message: string; remediation?: string } {
  const envelope = parseJson(result) as {
    diagnostics?: { code: string; level: string; message: string; remediation?: string }[];
    error?: { code: string; message: string; remediation?: string };
  };
  return envelope.error ?? envelope.diagnostics!.find((d) => d.level === "error")!;
}

function codes(result: RunResult): string[] {
  return ((parseJson(result).diagnostics ?? []) as { code: string }[]).map((d) => d.code);
}

function paths(result: RunResult): string[] {
  const data = parseJson(result).data as { results?: { span: { file_path: string } }[] };
  return (data.results ?? []).map((found) => found.span.file_path).sort();
}

async function indexed(files: Record<string, string> = FILES): Promise<string> {
  const root = await makeTree(files);
  const result = await index(root);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return root;
}

/** Every query a user runs on the index: each must refuse it with `code` (exit 3), never 5. */
async function assertQueriesRefuse(root: string, code: string, leak?: string): Promise<void> {
  for (
    const args of [["find", "helper"], ["refs", "helper"], ["callers", "helper"], ["status"], [
      "verify",
    ]]
  ) {
    const result = await query(root, args);
    assert.equal(result.code, 3, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    const error = errorOf(result);
    assert.equal(error.code, code, `${args.join(" ")}: ${result.stdout}`);
    assert.match(error.remediation ?? "", /llm-symbols index/);
    // The diagnostic may quote what the index holds, but no answer names that file.
    if (leak) {
      assert.ok(!result.stdout.includes(`"file_path":${JSON.stringify(leak)}`), result.stdout);
      assert.ok(!result.stdout.includes("outside_secret"), result.stdout);
    }
  }
}

/** `index` repairs the index (with the rebuild note `rebuilt`) and find answers from the tree. */
async function assertIndexRepairs(root: string, rebuilt: boolean): Promise<void> {
  const repaired = await index(root);
  assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  assert.equal(codes(repaired).includes("MAG-IO-024"), rebuilt, repaired.stdout);
  const found = await query(root, ["find", "helper"]);
  assert.equal(found.code, 0, found.stdout + found.stderr);
  assert.deepEqual(paths(found), ["c/util.c"]);
}

Deno.test("trust: an index row naming a file outside the root is never served; index rebuilds it", async (t) => {
  const outside = await makeTree({ "util.c": OUTSIDE_FILE });
  const root = await indexed();
  const db = join(root, ".llm", "index.db");
  const crafted = {
    "relative with ..": join(relative(root, outside), "util.c"),
    "absolute": join(outside, "util.c"),
  };
  try {
    for (const [name, path] of Object.entries(crafted)) {
      await t.step(name, async () => {
        const sqlite = new DatabaseSync(db);
        sqlite.prepare("UPDATE files SET path = ? WHERE path = 'c/util.c'").run(path);
        sqlite.close();
        await assertQueriesRefuse(root, "MAG-IO-023", path);
        await assertIndexRepairs(root, true);
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("trust: rows under a folder that became a link out of the root are not served; index drops them", async () => {
  const outside = await makeTree({ "util.c": OUTSIDE_FILE });
  const root = await indexed({
    ...FILES,
    "lib/extra.c": "int extra(void) { return helper(2); }\n",
  });
  try {
    await Deno.remove(join(root, "lib"), { recursive: true });
    Deno.symlinkSync(outside, join(root, "lib"));
    const refs = await query(root, ["refs", "helper"]);
    assert.equal(refs.code, 3, refs.stdout);
    assert.equal(errorOf(refs).code, "MAG-IO-023");
    assert.match(errorOf(refs).message, /symbolic link/);
    // The walk never follows the link out: `index` drops the folder's rows, no rebuild needed.
    const repaired = await index(root);
    assert.equal(repaired.code, 0, repaired.stdout);
    assert.ok(!codes(repaired).includes("MAG-IO-024"));
    const after = await query(root, ["refs", "helper"]);
    assert.equal(after.code, 0, after.stdout);
    assert.deepEqual([...new Set(paths(after))], ["c/main.c"]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

/** The database's page size, from its header. */
function pageSize(bytes: Uint8Array): number {
  const size = new DataView(bytes.buffer, bytes.byteOffset).getUint16(16);
  return size === 1 ? 65536 : size;
}

Deno.test("trust: a truncated or bit-flipped index is a coded refusal, and index builds it anew", async (t) => {
  const root = await indexed();
  const db = join(root, ".llm", "index.db");
  const pristine = Deno.readFileSync(db);
  const page = pageSize(pristine);
  assert.ok(pristine.length >= 4 * page, `a small index of ${pristine.length} bytes`);
  const damage: Record<string, (bytes: Uint8Array) => Uint8Array> = {
    // Every query reads the schema, on page 1 after the 100-byte file header.
    "truncated to half": (bytes) => bytes.slice(0, Math.floor(bytes.length / 2 / page) * page),
    "bytes flipped in the schema page": (bytes) => {
      for (let at = 100; at < page; at++) bytes[at] ^= 0xff;
      return bytes;
    },
  };
  try {
    for (const [name, damaged] of Object.entries(damage)) {
      await t.step(name, async () => {
        Deno.writeFileSync(db, damaged(pristine.slice()));
        await assertQueriesRefuse(root, "MAG-IO-022");
        await assertIndexRepairs(root, true);
      });
    }
    await t.step("bytes flipped in the last page (SQLite's whole check sees them)", async () => {
      // The last page's b-tree header: a query may or may not read it; `index` checks it.
      const bytes = Deno.readFileSync(db);
      const last = bytes.length - page;
      for (let at = last; at < last + 8; at++) bytes[at] ^= 0xff;
      Deno.writeFileSync(db, bytes);
      for (const args of [["find", "helper"], ["status"]]) {
        const result = await query(root, args);
        assert.ok(result.code === 0 || result.code === 3, result.stdout + result.stderr);
        if (result.code === 3) assert.equal(errorOf(result).code, "MAG-IO-022");
      }
      await assertIndexRepairs(root, true);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Runs `args` and fails (killing it) after `ms`: opening a FIFO to read blocks for ever. */
async function boundedRun(root: string, args: string[], write: boolean): Promise<RunResult> {
  const child = spawnEntry(ENTRY, args, write ? indexArgs(root) : { cwd: root });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`llm-symbols ${args.join(" ")} hung`));
    }, 60_000);
  });
  try {
    const output = await Promise.race([child.output(), timeout]);
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("trust: a directory, FIFO or link at the index path is named, never opened or replaced", async (t) => {
  const root = await makeTree({ ...FILES, ".llm/keep": "" });
  const db = join(root, ".llm", "index.db");
  try {
    await t.step("a directory", async () => {
      Deno.mkdirSync(db);
      Deno.writeTextFileSync(join(db, "mine.txt"), "not yours\n");
      for (const [args, write] of [[["find", "helper"], false], [["index"], true]] as const) {
        const result = await boundedRun(root, [...args], write);
        assert.equal(result.code, 3, result.stdout + result.stderr);
        const error = errorOf(result);
        assert.equal(error.code, "MAG-IO-025");
        assert.match(error.message, /\.llm\/index\.db is a directory/);
      }
      assert.equal(Deno.readTextFileSync(join(db, "mine.txt")), "not yours\n");
      Deno.removeSync(db, { recursive: true });
    });

    await t.step("a FIFO", async () => {
      const made = await new Deno.Command("mkfifo", { args: [db] }).output();
      assert.ok(made.success, "mkfifo");
      for (const [args, write] of [[["status"], false], [["index"], true]] as const) {
        const result = await boundedRun(root, [...args], write);
        assert.equal(result.code, 3, result.stdout + result.stderr);
        const error = errorOf(result);
        assert.equal(error.code, "MAG-IO-025");
        assert.match(error.message, /is a FIFO/);
      }
      assert.ok(Deno.lstatSync(db).isFifo);
      Deno.removeSync(db);
    });

    await t.step("a directory where the write-ahead log goes", async () => {
      Deno.mkdirSync(`${db}-wal`);
      const result = await boundedRun(root, ["index"], true);
      assert.equal(result.code, 3, result.stdout);
      assert.match(errorOf(result).message, /\.llm\/index\.db-wal is a directory/);
      Deno.removeSync(`${db}-wal`);
    });

    await t.step("a symbolic link: refused, its target untouched", async () => {
      const target = join(root, "c", "util.c");
      const before = Deno.readFileSync(target);
      Deno.symlinkSync(target, db);
      const result = await boundedRun(root, ["index"], true);
      assert.equal(result.code, 4, result.stdout);
      assert.equal(errorOf(result).code, "MAG-PERM-010");
      assert.deepEqual(Deno.readFileSync(target), before);
      Deno.removeSync(db);
    });

    await t.step("once removed, index builds it", async () => {
      const result = await boundedRun(root, ["index"], true);
      assert.equal(result.code, 0, result.stdout);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("trust: a generated file's facts are capped with a note naming it; other files stay whole", async () => {
  // 110,000 assignments: 550,001 syntax nodes, over the 500,000 a file's facts come from.
  const lines = Array.from({ length: 110_000 }, (_, i) => `v${i} = ${i}\n`).join("");
  const root = await makeTree({ "gen.py": lines, "small.py": "def kept():\n    return v1\n" });
  try {
    const result = await index(root);
    assert.equal(result.code, 0, result.stderr);
    const notes =
      (parseJson(result).diagnostics as { code: string; file?: string; message: string }[])
        .filter((d) => d.code === "MAG-IO-026");
    assert.equal(notes.length, 1, result.stdout);
    assert.equal(notes[0].file, "gen.py");
    // Statement 99,999 (0-based) holds node 500,000: the file is indexed before its line.
    assert.match(notes[0].message, /^gen\.py: its facts stop at line 100000, .*500000 nodes/);
    const kept = await query(root, ["find", "v99998"]);
    assert.equal(kept.code, 0, kept.stdout);
    assert.deepEqual(paths(kept), ["gen.py"]);
    const past = await query(root, ["find", "v99999"]);
    assert.equal(errorOf(past).code, "MAG-REF-001", past.stdout);
    const small = await query(root, ["find", "kept"]);
    assert.deepEqual(paths(small), ["small.py"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
