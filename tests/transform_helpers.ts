/**
 * Test plumbing shared by the llm-transform tests: run the tool in-process through its
 * definition (as the MCP server does), snapshot a tree byte for byte, read a journal.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import {
  type JournalManifest,
  type MutationEnvelope,
  newId,
  sha256,
  type TransformOutput,
  type TransformResult,
} from "../schema/mod.ts";
import { transformTool } from "../tools/transform/tool.ts";
import { assertValidEnvelope } from "./helpers.ts";

/** An envelope of llm-transform and the exit code of the run. */
export interface Outcome {
  /** The envelope, validated against the zod schema and the JSON Schema file. */
  envelope: MutationEnvelope<TransformOutput>;
  /** Exit code the CLI would end with. */
  code: number;
}

/** Runs the tool in-process on `root` with raw (MCP-style) arguments. */
export async function execute(root: string, args: Record<string, unknown>): Promise<Outcome> {
  const outcome = await transformTool.execute(args, { executionId: newId(), cwd: root });
  assertValidEnvelope(transformTool, outcome.envelope);
  return {
    envelope: outcome.envelope as MutationEnvelope<TransformOutput>,
    code: outcome.exitCode ?? 0,
  };
}

/** The edit result of an envelope (fails the test when it has none). */
export function editResult(outcome: Outcome): TransformResult {
  const result = outcome.envelope.result;
  assert.ok(result && "edits" in result, `no edit result: ${JSON.stringify(outcome.envelope)}`);
  return result;
}

/** Every file under `root` but the journal, path → sha256 (a byte-exact fingerprint). */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.name === ".llm" && dir === root) continue;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) files[relative(root, path)] = sha256(await Deno.readFile(path));
      else files[relative(root, path)] = entry.isSymlink ? "symlink" : "other";
    }
  }
  await walk(root);
  return files;
}

/** Names of leftover temporary files anywhere under `root`. */
export async function temporaries(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.startsWith(".llm-tmp.")) found.push(relative(root, join(dir, entry.name)));
      if (entry.isDirectory && entry.name !== ".llm") await walk(join(dir, entry.name));
    }
  }
  await walk(root);
  return found;
}

/** The manifest of journal `id` under `root`. */
export async function manifestOf(root: string, id: string): Promise<JournalManifest> {
  const text = await Deno.readTextFile(join(root, ".llm", "journal", id, "manifest.json"));
  return JSON.parse(text);
}

/** Journal directories under `root` (execution ids). */
export async function journalIds(root: string): Promise<string[]> {
  const ids: string[] = [];
  try {
    for await (const entry of Deno.readDir(join(root, ".llm", "journal"))) {
      if (entry.isDirectory) ids.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return ids.sort();
}

/** Whether this process runs as root (file modes do not stop root). */
export function runningAsRoot(): boolean {
  return Deno.uid() === 0;
}

/**
 * Makes `path` impossible to write for this process by a real operating-system means: mode
 * bits for an ordinary user, the immutable attribute (`chattr +i`) for root, whom modes do not
 * stop. Returns the undo, or `undefined` when neither works here (the caller skips).
 */
export async function makeUnwritable(path: string): Promise<(() => Promise<void>) | undefined> {
  if (!runningAsRoot()) {
    const mode = (await Deno.stat(path)).mode! & 0o7777;
    await Deno.chmod(path, mode & ~0o222);
    return () => Deno.chmod(path, mode);
  }
  const chattr = async (flag: string) => {
    try {
      const output = await new Deno.Command("chattr", { args: [flag, path], stderr: "null" })
        .output();
      return output.success;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  };
  if (!(await chattr("+i"))) return undefined;
  return async () => {
    assert.ok(await chattr("-i"), `chattr -i ${path}`);
  };
}

/** Polls `check` every 10 ms until it holds; fails the test after 30 s. */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether anything (even a dangling link) is at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Takes the workspace's commit lock the way a concurrent operation would, so that a run under
 * test stops before its re-check; closing the file lets it go on.
 */
export async function holdCommitLock(root: string): Promise<Deno.FsFile> {
  await Deno.mkdir(join(root, ".llm", "journal"), { recursive: true });
  const lock = await Deno.open(join(root, ".llm", "journal", ".lock"), {
    write: true,
    create: true,
  });
  await lock.lock(true);
  return lock;
}
