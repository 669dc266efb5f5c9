/**
 * llm-transform in a hostile repository, as real `deno run --no-prompt` subprocesses with the
 * flags a user gives (`--allow-read=<root> --allow-write=<root>`, and unscoped): crafted journal
 * manifests, a state folder reached through symbolic links, concurrent runs reaching one file
 * through different `--root` spellings, and malformed inputs. Each case compares the bytes and
 * the listing of a directory outside the root before and after the run: nothing there may be
 * created, changed, deleted, or even hashed into the output.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { type MutationEnvelope, sha256, type TransformOutput } from "../schema/mod.ts";
import { transformTool } from "../tools/transform/tool.ts";
import { assertValidEnvelope, parseJson, runEntry } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";
import { execute, exists, holdCommitLock, snapshot, until } from "./transform_helpers.ts";

const ENTRY = "tools/transform/main.ts";
const SECRET = "secret outside the root\n";
const PWNED = "written by a crafted journal\n";

/** A root with two files, an outside directory with a victim file, and links leading out. */
interface World {
  base: string;
  root: string;
  outside: string;
}

async function makeWorld(): Promise<World> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-hostile-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(join(root, "sub"), { recursive: true });
  await Deno.mkdir(join(outside, "dir"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.txt"), "alpha\n");
  await Deno.writeTextFile(join(root, "sub", "b.txt"), "beta\n");
  await Deno.writeTextFile(join(outside, "victim.txt"), SECRET);
  await Deno.symlink(outside, join(root, "out-link"));
  await Deno.symlink(join(outside, "victim.txt"), join(root, "victim-link"));
  return { base, root, outside };
}

/** Every entry under `dir`: kind, mode, and sha256 of a file or target of a link. */
async function listing(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  async function walk(path: string, name: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      const key = `${name}${entry.name}`;
      const info = await Deno.lstat(full);
      const mode = (info.mode ?? 0).toString(8);
      if (info.isSymlink) found[key] = `link ${await Deno.readLink(full)}`;
      else if (info.isDirectory) {
        found[key] = `dir ${mode}`;
        await walk(full, `${key}/`);
      } else if (info.isFile) found[key] = `file ${mode} ${sha256(await Deno.readFile(full))}`;
      else found[key] = `other ${mode}`; // a FIFO: opening it would block
    }
  }
  await walk(dir, "");
  return found;
}

/**
 * `found` without the execution log (`.llm/log`, which records every run, refused ones too), and
 * without `.llm` when the log was all it held.
 */
function withoutLog(found: Record<string, string>): Record<string, string> {
  const kept = Object.entries(found).filter(([key]) =>
    key !== ".llm/log" && !key.startsWith(".llm/log/")
  );
  const state = kept.some(([key]) => key.startsWith(".llm/"));
  return Object.fromEntries(kept.filter(([key]) => state || key !== ".llm"));
}

type Permissions = "scoped" | "unscoped";

function flags(root: string, permissions: Permissions): string[] {
  return permissions === "scoped"
    ? [`--allow-read=${root}`, `--allow-write=${root}`]
    : ["--allow-read", "--allow-write"];
}

interface Run {
  code: number;
  stdout: string;
  envelope: MutationEnvelope<TransformOutput>;
}

async function run(
  cwd: string,
  args: string[],
  permissions: string[],
  stdin?: string,
): Promise<Run> {
  const result = await runEntry(ENTRY, args, { cwd, permissions, stdin });
  assert.doesNotMatch(result.stderr, /\n\s+at /, `no stack trace: ${result.stderr}`);
  const envelope = parseJson(result);
  assertValidEnvelope(transformTool, envelope);
  return {
    code: result.code,
    stdout: result.stdout,
    envelope: envelope as unknown as MutationEnvelope<TransformOutput>,
  };
}

/** Runs the tool in-process with MCP arguments, as the MCP server does. */
async function inProcess(root: string, args: Record<string, unknown>): Promise<Run> {
  const { envelope, code } = await execute(root, args);
  return { code, stdout: JSON.stringify(envelope), envelope };
}

/** Runs `tasks` with at most `limit` at a time (the machine is shared). */
async function pool<T>(tasks: (() => Promise<T>)[], limit = 3): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  async function worker(): Promise<void> {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/**
 * Runs `args` in a fresh world prepared by `prepare`, and checks that the run was refused with
 * one of `codes` (exit 2, 3 or 4), that nothing outside the root changed and that nothing in
 * the root changed (bar the state folder), and that the output holds neither the outside
 * file's checksum nor its text.
 */
async function assertContained(
  label: string,
  prepare: (world: World) => Promise<void>,
  args: string[],
  permissions: Permissions,
  codes: string[],
): Promise<void> {
  const world = await makeWorld();
  try {
    await prepare(world);
    const outsideBefore = await listing(world.outside);
    const rootBefore = await snapshot(world.root);
    const result = await run(world.root, args, flags(world.root, permissions));
    const where = `${label} [${permissions}]: ${result.stdout}`;
    assert.ok([2, 3, 4].includes(result.code), `exit ${result.code}; ${where}`);
    assert.ok(codes.includes(result.envelope.error?.code ?? ""), where);
    assert.deepEqual(await listing(world.outside), outsideBefore, `outside changed: ${where}`);
    assert.deepEqual(await snapshot(world.root), rootBefore, `root changed: ${where}`);
    assert.ok(!result.stdout.includes(sha256(SECRET)), `outside checksum leaked: ${where}`);
    assert.ok(!result.stdout.includes(SECRET.trim()), `outside text leaked: ${where}`);
  } finally {
    await Deno.remove(world.base, { recursive: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Crafted journal manifests

/** What a crafted journal asks recovery or undo to do to its target. */
type Attack = "overwrite" | "delete" | "create";

/** Where a crafted journal points: the file's path, its temporary file, or its backup. */
interface Target {
  name: string;
  /** The manifest's fields for file 0, given the world and the journal id. */
  file: (world: World, id: string) => { path: string; temp?: string; backup?: string };
  /** Attacks that make sense for this target. */
  attacks: Attack[];
}

const TARGETS: Target[] = [
  {
    name: "absolute path outside",
    file: (w) => ({ path: join(w.outside, "victim.txt") }),
    attacks: ["overwrite", "delete", "create"],
  },
  {
    name: "path with ..",
    file: (w) => ({ path: `${w.root}/../outside/victim.txt` }),
    attacks: ["overwrite", "delete", "create"],
  },
  {
    name: "relative path out",
    file: () => ({ path: "../outside/victim.txt" }),
    attacks: ["overwrite", "delete"],
  },
  {
    name: "path through a linked directory",
    file: (w) => ({ path: join(w.root, "out-link", "victim.txt") }),
    attacks: ["overwrite", "delete", "create"],
  },
  {
    name: "path that is a link to an outside file",
    file: (w) => ({ path: join(w.root, "victim-link") }),
    attacks: ["overwrite", "delete"],
  },
  {
    name: "temporary file outside",
    file: (w) => ({ path: join(w.root, "a.txt"), temp: join(w.outside, "victim.txt") }),
    attacks: ["overwrite"],
  },
  {
    name: "backup name with ..",
    file: (w) => ({
      path: join(w.root, "a.txt"),
      backup: "../../../../outside/victim.txt",
    }),
    attacks: ["overwrite"],
  },
  {
    name: "backup name with /",
    file: (w) => ({ path: join(w.root, "a.txt"), backup: "dir/../../../../outside/victim.txt" }),
    attacks: ["overwrite"],
  },
];

/**
 * Writes a journal whose file 0 is `target`, arranged so that the naive recovery (state
 * `committing`) or undo (state `committed`) performs `attack`: the file "holds its new bytes"
 * (the victim's checksum), and its backup holds bytes to write back. For recovery a second,
 * honest file still holds its prior bytes, so the operation is rolled back, not finished.
 */
async function craftJournal(
  world: World,
  id: string,
  target: Target,
  attack: Attack,
  state: "committing" | "committed",
): Promise<void> {
  const dir = join(world.root, ".llm", "journal", id);
  await Deno.mkdir(dir, { recursive: true });
  const file = target.file(world, id);
  const path = attack === "create" ? join(dirname(file.path), "created.txt") : file.path;
  const backupName = file.backup ?? "backup-0";
  const stealsBackup = file.backup !== undefined;
  if (!stealsBackup) await Deno.writeTextFile(join(dir, "backup-0"), PWNED);
  const before = stealsBackup ? SECRET : PWNED;
  const manifest = {
    format: 1,
    execution_id: id,
    tool: "llm-transform",
    operation_type: "edit",
    root: world.root,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    state,
    files: [
      {
        file_path: "a.txt",
        path,
        temp: file.temp ?? join(dirname(path), `.llm-tmp.${id}.0`),
        ...(attack === "delete" ? {} : { backup: backupName }),
        checksum_before: attack === "delete" ? null : sha256(before),
        checksum_after: attack === "create" ? null : sha256(stealsBackup ? "alpha\n" : SECRET),
        mode: 0o644,
      },
      ...(state === "committing" ? [await honestFile(world, dir, id)] : []),
    ],
  };
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest));
}

/** File 1 of a crafted journal: sub/b.txt, untouched by the "interrupted" operation. */
async function honestFile(world: World, dir: string, id: string) {
  await Deno.writeTextFile(join(dir, "backup-1"), "beta\n");
  const path = join(world.root, "sub", "b.txt");
  return {
    file_path: "sub/b.txt",
    path,
    temp: join(dirname(path), `.llm-tmp.${id}.1`),
    backup: "backup-1",
    checksum_before: sha256("beta\n"),
    checksum_after: sha256("BETA\n"),
    mode: 0o644,
  };
}

const JOURNAL_CODES = ["LMT-PERM-012", "LMT-REF-002", "LMT-PERM-011"];

Deno.test("a crafted journal makes neither --recover nor --undo touch, create, delete or hash anything outside the root", async (t) => {
  const cases: { label: string; run: () => Promise<void> }[] = [];
  for (const target of TARGETS) {
    for (const attack of target.attacks) {
      for (const op of ["recover", "recover-dry", "undo", "undo-dry"] as const) {
        for (const permissions of ["scoped", "unscoped"] as Permissions[]) {
          const id = crypto.randomUUID();
          const undo = op.startsWith("undo");
          const args = undo ? ["--undo", id] : ["--recover"];
          if (op.endsWith("dry")) args.push("--dry-run");
          const label = `${target.name}, ${attack}, ${op}`;
          cases.push({
            label: `${label} [${permissions}]`,
            run: () =>
              assertContained(
                label,
                (world) =>
                  craftJournal(world, id, target, attack, undo ? "committed" : "committing"),
                args,
                permissions,
                JOURNAL_CODES,
              ),
          });
        }
      }
    }
  }
  const failures: string[] = [];
  await pool(cases.map((c) => async () => {
    try {
      await c.run();
    } catch (error) {
      failures.push(`${c.label}: ${error instanceof Error ? error.message : error}`);
    }
  }));
  await t.step(`${cases.length} cases`, () => {
    assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases failed`);
  });
});

Deno.test("through llm-mcp, a crafted journal makes neither recover nor undo touch or hash anything outside", async () => {
  const world = await makeWorld();
  const server = await connect({
    root: world.root,
    permissions: [`--allow-read=${world.root}`, `--allow-write=${world.root}`],
  });
  try {
    const outsideBefore = await listing(world.outside);
    const victim = sha256(SECRET).replace("sha256:", "");
    for (const target of TARGETS.slice(0, 4)) {
      for (const undo of [true, false]) {
        const id = crypto.randomUUID();
        await craftJournal(world, id, target, "overwrite", undo ? "committed" : "committing");
        const args = undo ? { undo: id } : { recover: true };
        const result = await server.client.callTool({ name: "transform", arguments: args });
        const text = JSON.stringify(result);
        const label = `${target.name}, ${undo ? "undo" : "recover"}`;
        assert.equal(result.isError, true, `${label}: ${text}`);
        assert.ok(JOURNAL_CODES.some((code) => text.includes(code)), `${label}: ${text}`);
        assert.ok(!text.includes(victim) && !text.includes(SECRET.trim()), `${label} leaks`);
        assert.deepEqual(await listing(world.outside), outsideBefore, label);
        await Deno.remove(join(world.root, ".llm", "journal", id), { recursive: true });
      }
    }
  } finally {
    await server.close();
    await Deno.remove(world.base, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// A state folder reached through symbolic links

/** How a case links the state folder out of the root. */
interface StateLink {
  name: string;
  prepare: (world: World, id: string) => Promise<void>;
}

/** A real, committed operation on a.txt, made by the tool itself; returns its id. */
async function commitEdit(world: World): Promise<string> {
  const result = await run(
    world.root,
    ["--file", "a.txt", "--old", "alpha", "--new", "ALPHA"],
    flags(world.root, "scoped"),
  );
  assert.equal(result.code, 0, result.stdout);
  return result.envelope.execution_id;
}

const STATE_LINKS: StateLink[] = [
  {
    name: ".llm is a link out",
    prepare: async (w) => {
      await Deno.mkdir(join(w.outside, "state"));
      await Deno.symlink(join(w.outside, "state"), join(w.root, ".llm"));
    },
  },
  {
    name: ".llm/journal is a link out",
    prepare: async (w) => {
      await Deno.mkdir(join(w.outside, "journal"));
      await Deno.mkdir(join(w.root, ".llm"));
      await Deno.symlink(join(w.outside, "journal"), join(w.root, ".llm", "journal"));
    },
  },
  {
    name: ".llm is a link to a directory inside the root",
    prepare: async (w) => {
      await Deno.symlink(join(w.root, "sub"), join(w.root, ".llm"));
    },
  },
  {
    name: "the root's lock file is a link out",
    prepare: async (w) => {
      await Deno.mkdir(join(w.root, ".llm", "journal"), { recursive: true });
      await Deno.symlink(join(w.outside, "lock"), join(w.root, ".llm", "journal", ".lock"));
    },
  },
];

Deno.test("a state folder reached through a link is refused (LMT-PERM-011): no backup is written anywhere", async (t) => {
  const runs: [string, string[]][] = [
    ["edit", ["--file", "a.txt", "--old", "alpha", "--new", "ALPHA"]],
    ["span edit", ["--file", "sub/b.txt", "--span", "0:4", "--with", "BETA"]],
    ["dry run", ["--file", "a.txt", "--old", "alpha", "--new", "ALPHA", "--dry-run"]],
    ["recover", ["--recover"]],
  ];
  const cases: (() => Promise<void>)[] = [];
  for (const link of STATE_LINKS) {
    for (const [name, args] of runs) {
      // A dry run or a recovery with no state folder to read needs nothing of it.
      if (link.name.includes("lock") && (name === "dry run")) continue;
      for (const permissions of ["scoped", "unscoped"] as Permissions[]) {
        cases.push(() =>
          assertContained(
            `${link.name}, ${name}`,
            (world) => link.prepare(world, ""),
            args,
            permissions,
            ["LMT-PERM-011"],
          )
        );
      }
    }
  }
  await pool(cases);
  await t.step(`${cases.length} cases`, () => {});
});

Deno.test("a journal directory, manifest, lock or backup that is a link is refused for --undo and --recover", async (t) => {
  const swaps: { name: string; swap: (world: World, id: string) => Promise<void> }[] = [
    {
      name: "journal directory is a link out",
      swap: async (w, id) => {
        const dir = join(w.root, ".llm", "journal", id);
        await Deno.rename(dir, join(w.outside, "moved"));
        await Deno.symlink(join(w.outside, "moved"), dir);
      },
    },
    {
      name: "backup is a link to an outside file",
      swap: async (w, id) => {
        const backup = join(w.root, ".llm", "journal", id, "backup-0");
        await Deno.writeTextFile(join(w.outside, "backup"), "alpha\n");
        await Deno.remove(backup);
        await Deno.symlink(join(w.outside, "backup"), backup);
      },
    },
    {
      name: "manifest is a link to an outside file",
      swap: async (w, id) => {
        const manifest = join(w.root, ".llm", "journal", id, "manifest.json");
        await Deno.rename(manifest, join(w.outside, "manifest.json"));
        await Deno.symlink(join(w.outside, "manifest.json"), manifest);
      },
    },
    {
      name: "lock is a link to an outside file",
      swap: async (w, id) => {
        // A finished journal has no lock file of its own (see Journal.setState): one is planted.
        const lock = join(w.root, ".llm", "journal", id, "lock");
        await Deno.symlink(join(w.outside, "victim.txt"), lock);
      },
    },
  ];
  const cases: (() => Promise<void>)[] = [];
  for (const { name, swap } of swaps) {
    for (const op of ["undo", "undo-dry", "recover"]) {
      for (const permissions of ["scoped", "unscoped"] as Permissions[]) {
        let id = "";
        const args = () => op === "recover" ? ["--recover"] : ["--undo", id];
        cases.push(async () => {
          const world = await makeWorld();
          try {
            id = await commitEdit(world);
            if (op === "recover") await markCommitting(world, id);
            await swap(world, id);
            const outsideBefore = await listing(world.outside);
            const rootBefore = await snapshot(world.root);
            const argv = [...args(), ...(op === "undo-dry" ? ["--dry-run"] : [])];
            const result = await run(world.root, argv, flags(world.root, permissions));
            const where = `${name}, ${op} [${permissions}]: ${result.stdout}`;
            assert.ok([2, 3, 4].includes(result.code), where);
            assert.ok(JOURNAL_CODES.includes(result.envelope.error?.code ?? ""), where);
            assert.deepEqual(await listing(world.outside), outsideBefore, where);
            assert.deepEqual(await snapshot(world.root), rootBefore, where);
          } finally {
            await Deno.remove(world.base, { recursive: true });
          }
        });
      }
    }
  }
  await pool(cases);
  await t.step(`${cases.length} cases`, () => {});
});

/** Turns a committed journal back to `committing`, as if its process had been killed. */
async function markCommitting(world: World, id: string): Promise<void> {
  const path = join(world.root, ".llm", "journal", id, "manifest.json");
  const manifest = JSON.parse(await Deno.readTextFile(path));
  await Deno.writeTextFile(path, JSON.stringify({ ...manifest, state: "committing" }));
}

// ---------------------------------------------------------------------------------------------
// Concurrent runs through different roots

/** How each concurrent run spells its root, relative to the world's base. */
const ROOT_SPELLINGS: { roots: string[]; links?: [string, string][] }[] = [
  { roots: ["root", "root/sub"] },
  { roots: ["root/sub", "root"] },
  { roots: ["root", "root/sub", "sub-link"], links: [["sub-link", "root/sub"]] },
  { roots: ["root-link", "root/sub", "root"], links: [["root-link", "root"]] },
];

/**
 * Starts one run per root spelling, each replacing the whole of `root/sub/b.txt` and expecting
 * its original checksum, while the test holds every root's commit lock; once every run has
 * written its temporary file, the locks are let go together.
 */
async function raceThroughRoots(
  world: World,
  roots: string[],
): Promise<{ root: string; text: string; run: Run }[]> {
  const file = join(world.root, "sub", "b.txt");
  const original = await Deno.readTextFile(file);
  const locks = await Promise.all(
    [...new Set(roots.map((root) => Deno.realPathSync(join(world.base, root))))].map(
      holdCommitLock,
    ),
  );
  const runs = roots.map((root, index) => {
    const id = crypto.randomUUID();
    const rootPath = join(world.base, root);
    const relative = join(world.root, "sub") === Deno.realPathSync(rootPath)
      ? "b.txt"
      : "sub/b.txt";
    const text = `written through ${root} by run ${index}\n`;
    const plan = JSON.stringify({
      execution_id: id,
      file_checksums: { [relative]: sha256(original) },
      edits: [{ file_path: relative, byte_start: 0, byte_end: original.length, new_text: text }],
    });
    const started = run(
      world.base,
      ["--root", root, "--plan", "-"],
      [`--allow-read=${world.base}`, `--allow-write=${world.base}`],
      plan,
    );
    return { root, text, id, started };
  });
  for (const { id } of runs) {
    await until(() => exists(join(world.root, "sub", `.llm-tmp.${id}.0`)), "a temporary file");
  }
  for (const lock of locks) lock.close();
  return await Promise.all(
    runs.map(async ({ root, text, started }) => ({ root, text, run: await started })),
  );
}

Deno.test("concurrent runs reaching one file through different --root spellings lose no update", async (t) => {
  for (const [round, spelling] of ROOT_SPELLINGS.entries()) {
    await t.step(`${round}: ${spelling.roots.join(" | ")}`, async () => {
      const world = await makeWorld();
      try {
        for (const [link, target] of spelling.links ?? []) {
          await Deno.symlink(join(world.base, target), join(world.base, link));
        }
        const results = await raceThroughRoots(world, spelling.roots);
        const landed = results.filter((result) => result.run.code === 0);
        const detail = results.map((r) => `${r.root}: ${r.run.code} ${r.run.envelope.message}`)
          .join("\n");
        assert.equal(landed.length, 1, `exactly one run may land:\n${detail}`);
        for (const result of results) {
          if (result.run.code === 0) continue;
          assert.equal(result.run.code, 3, detail);
          assert.ok(["LMT-V-009", "LMT-V-001"].includes(result.run.envelope.error!.code), detail);
        }
        const final = await Deno.readTextFile(join(world.root, "sub", "b.txt"));
        assert.equal(final, landed[0].text, `the run that reported ok must be in the file`);
      } finally {
        await Deno.remove(world.base, { recursive: true });
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Malformed inputs

Deno.test("malformed transform inputs are coded (exit 2/3), never an internal error, nothing written", async (t) => {
  const edit = (file: string) =>
    JSON.stringify([{ file_path: file, byte_start: 0, byte_end: 0, new_text: "x" }]);
  const journal = async (world: World, text: string) => {
    const dir = join(world.root, ".llm", "journal", "0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, "manifest.json"), text);
  };
  const undoArgs = ["--undo", "0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11"];
  const cases: {
    name: string;
    prepare?: (world: World) => Promise<void>;
    args: string[];
    /** Run in-process with these MCP arguments instead (argv cannot carry a NUL byte). */
    mcp?: Record<string, unknown>;
    stdin?: string;
    codes: string[];
  }[] = [
    {
      name: "NUL byte in an edit's path",
      args: ["--edits", edit("a\0.txt")],
      codes: ["LMT-IO-004"],
    },
    {
      name: "NUL byte in a plan's path, on standard input",
      args: ["--plan", "-"],
      stdin: JSON.stringify({ edits: JSON.parse(edit("sub/\0b.txt")) }),
      codes: ["LMT-IO-004"],
    },
    {
      name: "NUL byte in the file of an MCP call",
      args: [],
      mcp: { file: "a.txt\0x", old: "alpha", new: "b" },
      codes: ["LMT-IO-004"],
    },
    {
      name: "NUL byte in the root of an MCP call",
      args: [],
      mcp: { root: "sub\0", file: "b.txt", old: "beta", new: "b" },
      codes: ["LMT-IO-004"],
    },
    {
      name: "an edit's file is a directory",
      args: ["--edits", edit("sub")],
      codes: ["LMT-IO-012"],
    },
    {
      name: "an edit's file is a FIFO",
      prepare: async (w) => {
        const made = await new Deno.Command("mkfifo", { args: [join(w.root, "pipe")] }).output();
        assert.ok(made.success, "mkfifo");
      },
      args: ["--edits", edit("pipe")],
      codes: ["LMT-IO-012"],
    },
    {
      name: "--root is a file",
      args: ["--root", "a.txt", "--file", "a.txt", "--old", "alpha", "--new", "b"],
      codes: ["LMT-IO-001"],
    },
    { name: "--plan is a directory", args: ["--plan", "sub"], codes: ["LMT-IO-004"] },
    {
      name: "a manifest that is not JSON, for --undo",
      prepare: (w) => journal(w, "{ not json"),
      args: undoArgs,
      codes: ["LMT-REF-002"],
    },
    {
      name: "a manifest that fails its schema, for --undo",
      prepare: (w) => journal(w, JSON.stringify({ format: 1, files: "all" })),
      args: undoArgs,
      codes: ["LMT-REF-002"],
    },
    {
      name: "a manifest naming another execution id, for --undo",
      prepare: (w) =>
        journal(
          w,
          JSON.stringify({
            format: 1,
            execution_id: "other",
            tool: "llm-transform",
            operation_type: "edit",
            root: w.root,
            created_at: "",
            updated_at: "",
            state: "committed",
            files: [],
          }),
        ),
      args: undoArgs,
      codes: ["LMT-REF-002"],
    },
  ];
  const failures: string[] = [];
  await pool(cases.map((c) => async () => {
    const world = await makeWorld();
    try {
      await c.prepare?.(world);
      const outsideBefore = await listing(world.outside);
      const rootBefore = withoutLog(await listing(world.root));
      const result = c.mcp
        ? await inProcess(world.root, c.mcp)
        : await run(world.root, c.args, flags(world.root, "scoped"), c.stdin);
      const where = `${c.name}: ${result.stdout}`;
      assert.ok([2, 3].includes(result.code), `exit ${result.code}: ${where}`);
      assert.ok(c.codes.includes(result.envelope.error?.code ?? ""), where);
      assert.deepEqual(await listing(world.outside), outsideBefore, where);
      assert.deepEqual(withoutLog(await listing(world.root)), rootBefore, where);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    } finally {
      await Deno.remove(world.base, { recursive: true });
    }
  }));
  await t.step(`${cases.length} cases`, () => assert.deepEqual(failures, []));
});

Deno.test("a damaged manifest is skipped by --recover with a coded warning, touching nothing", async () => {
  const world = await makeWorld();
  try {
    const dir = join(world.root, ".llm", "journal", crypto.randomUUID());
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, "manifest.json"), `{"files": "${SECRET.trim()}"`);
    const lock = ".llm/journal/.lock"; // the root's commit lock, taken by --recover
    const before = await listing(world.root);
    const result = await run(world.root, ["--recover"], flags(world.root, "scoped"));
    assert.equal(result.code, 0, result.stdout);
    assert.equal(result.envelope.diagnostics[0].code, "LMT-REF-002");
    assert.ok(!result.stdout.includes(SECRET.trim()), "the manifest's text is not echoed");
    const after = withoutLog(await listing(world.root));
    delete after[lock];
    assert.deepEqual(after, before);
  } finally {
    await Deno.remove(world.base, { recursive: true });
  }
});
