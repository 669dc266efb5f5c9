/**
 * Bad path input is coded, never an internal error: file and directory names that are not
 * valid UTF-8 (made with python3, since Deno paths are strings) are skipped with one
 * `*-IO-006` warning each, naming them lossily, and the search goes on over the other files —
 * through the `llm-search` and `llm-discover` subprocesses. A NUL byte in a path argument is a
 * coded `*-IO-004` error (exit 2); a command line cannot carry a NUL byte, so that is checked
 * through the engines, which the MCP server calls with its arguments.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasCommand, makeTree, parseJson, runEntry, seededRandom } from "./helpers.ts";
import { search } from "../tools/search/engine.ts";
import { discover } from "../tools/discover/engine.ts";
import { ToolError } from "../schema/diagnostic.ts";

const hasPython = hasCommand("python3");

/** Bytes that never start or continue valid UTF-8 where they are put. */
const BAD_BYTES = ["ff", "fe", "c0", "80", "e9", "ed a0 80"];

interface BadTree {
  root: string;
  /** Good files (relative, `/`). */
  good: string[];
  /** Top-most bad entries, as the tools show them (U+FFFD per bad sequence). */
  bad: string[];
}

async function makeBadTree(rng: () => number): Promise<BadTree> {
  const root = await makeTree({});
  const good: string[] = [];
  const bad: string[] = [];
  const script: string[] = ["import os", `root = ${JSON.stringify(root)}.encode()`];
  for (let i = 0; i < 6; i++) {
    const dir = rng() < 0.5 ? "" : `d${i}`;
    if (dir) script.push(`os.makedirs(root + b"/${dir}", exist_ok=True)`);
    const hex = BAD_BYTES[Math.floor(rng() * BAD_BYTES.length)].split(" ").map((b) => `\\x${b}`)
      .join("");
    const badName = `b${i}${hex}.txt`;
    const inBadDir = rng() < 0.3;
    const parent = dir ? `${dir}/` : "";
    if (inBadDir) {
      script.push(`os.makedirs(root + b"/${parent}dir${i}${hex}", exist_ok=True)`);
      script.push(`open(root + b"/${parent}dir${i}${hex}/in.txt", "wb").write(b"hit\\n")`);
      bad.push(`${parent}dir${i}\uFFFD`);
    } else {
      script.push(`open(root + b"/${parent}${badName}", "wb").write(b"hit\\n")`);
      bad.push(`${parent}b${i}\uFFFD.txt`);
    }
    script.push(`open(root + b"/${parent}g${i}.txt", "wb").write(b"hit\\n")`);
    good.push(`${parent}g${i}.txt`);
  }
  const output = await new Deno.Command("python3", { args: ["-c", script.join("\n")] }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  return { root, good: good.sort(), bad: bad.sort() };
}

function warnings(envelope: Record<string, unknown>, code: string): string[] {
  const diagnostics = envelope.diagnostics as { code: string; file?: string }[];
  return diagnostics.filter((d) => d.code === code).map((d) => d.file ?? "").sort();
}

Deno.test({
  name:
    "names that are not UTF-8 are skipped with a coded warning, the rest searched (needs python3)",
  ignore: !hasPython,
  async fn() {
    const rng = seededRandom(3);
    for (let round = 0; round < 3; round++) {
      const tree = await makeBadTree(rng);
      try {
        const permissions = [`--allow-read=${tree.root}`];
        const searched = await runEntry("tools/search/main.ts", ["-l", "hit", "--limit", "0"], {
          cwd: tree.root,
          permissions,
        });
        assert.equal(searched.code, 0, searched.stdout + searched.stderr);
        const found = parseJson(searched);
        assert.deepEqual((found.data as { files: string[] }).files, tree.good);
        // A U+FFFD stands for each invalid sequence; compare the names up to it.
        const lossy = (names: string[]) => names.map((name) => name.replace(/\uFFFD+/g, "\uFFFD"));
        assert.deepEqual(lossy(warnings(found, "LMS-IO-006")), tree.bad);
        const listed = await runEntry("tools/discover/main.ts", ["txt", "--limit", "0"], {
          cwd: tree.root,
          permissions,
        });
        assert.equal(listed.code, 0, listed.stdout + listed.stderr);
        const discovered = parseJson(listed);
        const paths = (discovered.data as { results: { path: string }[] }).results
          .map((result) => result.path).sort();
        assert.deepEqual(paths, tree.good);
        assert.deepEqual(lossy(warnings(discovered, "LMD-IO-006")), tree.bad);
        // A bad name given on the command line reaches the tool lossily: a missing path, exit 2.
        const named = await runEntry("tools/search/main.ts", ["hit", tree.bad[0]], {
          cwd: tree.root,
          permissions,
        });
        assert.equal(named.code, 2, named.stdout);
      } finally {
        await Deno.remove(tree.root, { recursive: true });
      }
    }
  },
});

Deno.test("a NUL byte in a path is a coded IO-004 error in every walking engine", async () => {
  const root = await makeTree({ "a.txt": "hit\n" });
  try {
    for (const path of ["a\0b", "\0", "a.txt\0", join(root, "x\0/y")]) {
      await assert.rejects(
        search({ patterns: ["hit"], cwd: root, paths: [path] }),
        (error) => error instanceof ToolError && error.code === "LMS-IO-004",
      );
      await assert.rejects(
        discover({ query: "a", cwd: root, paths: [path] }),
        (error) => error instanceof ToolError && error.code === "LMD-IO-004",
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
