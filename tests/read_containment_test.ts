/**
 * Read tools never read through a link out of the root (the working directory), under a scoped
 * `--allow-read=<root>` or an unscoped `--allow-read`: Deno checks the name, not the target, so
 * the walker checks real paths itself. Generated trees hold links to files and directories
 * inside and outside the root (relative and absolute targets, chains of links, `..` through a
 * linked directory); the searches name them on the command line or meet them in the walk, with
 * and without `--follow`. Outside files hold a marker that must never appear in any output; a
 * named path that leads out is a coded `*-IO-003` error (exit 2); a named link to a target
 * inside the root is read, as ripgrep reads it; a real path named outside the root is read as
 * named (`rg pattern /etc/hosts` works).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { makeTree, parseJson, runEntry, seededRandom } from "./helpers.ts";

const MARKER = "SECRET-7f3a";

interface Layout {
  top: string;
  root: string;
  /** Named path (relative to the root) → whether it leads outside the root. */
  links: Map<string, boolean>;
}

/** A root with real files, an outside folder with secrets, and random links between them. */
async function makeLayout(rng: () => number): Promise<Layout> {
  const top = await makeTree({
    "outside/secret.txt": `${MARKER} hit\n`,
    "outside/deep/secret.c": `int x; /* ${MARKER} hit */\n`,
    "root/src/in.txt": "hit inside\n",
    "root/src/deep/in.c": "int hit;\n",
  });
  const root = join(top, "root");
  const links = new Map<string, boolean>();
  const targets: [string, boolean][] = [
    ["../outside/secret.txt", true],
    ["../outside", true],
    ["../outside/deep", true],
    [join(top, "outside/secret.txt"), true],
    ["src/in.txt", false],
    ["src", false],
    ["src/deep", false],
    [join(root, "src/deep/in.c"), false],
  ];
  for (let i = 0; i < 4; i++) {
    const [target, out] = targets[Math.floor(rng() * targets.length)];
    const name = `link${i}`;
    // Relative targets are written relative to the root, where the links live.
    await Deno.symlink(target, join(root, name));
    links.set(name, out);
  }
  // A chain: a link to a link that leads out, and one that stays in.
  await Deno.symlink("link_out_end", join(root, "chain_out"));
  await Deno.symlink("../outside/secret.txt", join(root, "link_out_end"));
  links.set("chain_out", true).set("link_out_end", true);
  await Deno.symlink("src/in.txt", join(root, "chain_in"));
  links.set("chain_in", false);
  return { top, root, links };
}

interface Outcome {
  code: number;
  text: string;
  envelope: Record<string, unknown>;
}

async function run(entry: string, args: string[], layout: Layout, scoped: boolean) {
  const result = await runEntry(entry, args, {
    cwd: layout.root,
    permissions: [scoped ? `--allow-read=${layout.root}` : "--allow-read"],
  });
  return { code: result.code, text: result.stdout + result.stderr, envelope: parseJson(result) };
}

function codes(outcome: Outcome): { code: string; file?: string; message: string }[] {
  return outcome.envelope.diagnostics as { code: string; file?: string; message: string }[];
}

Deno.test("no read tool reads through a link out of the root, named or walked, scoped or not", async () => {
  const rng = seededRandom(5);
  for (let seed = 0; seed < 4; seed++) {
    const layout = await makeLayout(rng);
    try {
      const scoped = seed % 2 === 0;
      const follow = rng() < 0.5 ? ["--follow"] : [];
      // Named: every link, paths through linked directories, and `..` through a linked one.
      const named = [...layout.links.keys()];
      const through = [...layout.links.entries()].filter(([name]) =>
        ["link0", "link1", "link2", "link3"].includes(name)
      ).map(([name]) => `${name}/secret.txt`);
      // A sample keeps the run short; the seeds cover every kind of link across the cases.
      const sample = [...named, ...through].filter(() => rng() < 0.6);
      for (const path of sample) {
        const out = layout.links.get(path) ??
          Deno.realPathSync(join(layout.root, path.split("/")[0])).startsWith(
            join(layout.top, "outside"),
          );
        let exists = true;
        try {
          Deno.statSync(join(layout.root, path));
        } catch {
          exists = false;
        }
        const outcome = await run(
          "tools/search/main.ts",
          ["hit|int", path, ...follow],
          layout,
          scoped,
        );
        assert.ok(!outcome.text.includes(MARKER), `${path} leaked: ${outcome.text}`);
        if (!exists) continue;
        if (out) {
          assert.equal(outcome.code, 2, `${path}: ${outcome.text}`);
          const refusal = codes(outcome).find((d) => d.code === "LMS-IO-003");
          assert.ok(refusal, `${path}: no LMS-IO-003 in ${outcome.text}`);
          assert.equal(refusal.file, path);
        } else {
          assert.equal(outcome.code, 0, `${path}: ${outcome.text}`);
          const data = outcome.envelope.data as { match_count: number };
          assert.ok(data.match_count > 0, `${path} (inside the root) was not searched`);
        }
      }
      // Walked: links met in the walk are never followed out, with or without --follow.
      for (
        const [entry, args] of [
          ["tools/search/main.ts", ["hit|int", ...follow]],
          ["tools/discover/main.ts", ["secret", ...follow]],
          ["tools/search/main.ts", [
            "hit|int",
            relative(layout.root, layout.root) || ".",
            ...follow,
          ]],
        ] as const
      ) {
        const outcome = await run(entry, [...args], layout, scoped);
        assert.equal(outcome.code, 0, outcome.text);
        assert.ok(!outcome.text.includes(MARKER), `walk leaked: ${outcome.text}`);
        assert.ok(!outcome.text.includes("outside/"), `walk listed outside paths: ${outcome.text}`);
      }
    } finally {
      await Deno.remove(layout.top, { recursive: true });
    }
  }
});

Deno.test("a real path named outside the root is read as named; a link named there is refused", async () => {
  const top = await makeTree({ "elsewhere/notes.txt": "hit there\n", "root/a.txt": "hit\n" });
  try {
    await Deno.symlink(join(top, "elsewhere/notes.txt"), join(top, "elsewhere/link.txt"));
    const layout: Layout = { top, root: join(top, "root"), links: new Map() };
    const real = await run(
      "tools/search/main.ts",
      ["hit", "../elsewhere/notes.txt"],
      layout,
      false,
    );
    assert.equal(real.code, 0, real.text);
    const matches = (real.envelope.data as { matches: { span: { file_path: string } }[] }).matches;
    assert.deepEqual(matches.map((m) => m.span.file_path), [join(top, "elsewhere/notes.txt")]);
    const link = await run("tools/search/main.ts", ["hit", "../elsewhere/link.txt"], layout, false);
    assert.equal(link.code, 2, link.text);
    assert.ok(codes(link).some((d) => d.code === "LMS-IO-003"), link.text);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

Deno.test("ast-search refuses a named link out of the root without echoing the file", async () => {
  const top = await makeTree({
    "outside/x.c": `int ${MARKER.replace("-", "_")}(void) { return 0; }\n`,
    "root/a.c": "int a;\n",
  });
  try {
    await Deno.symlink("../outside/x.c", join(top, "root/x.c"));
    const layout: Layout = { top, root: join(top, "root"), links: new Map() };
    const outcome = await run(
      "tools/ast-search/main.ts",
      ["--kind", "function", "x.c", "--follow"],
      layout,
      true,
    );
    assert.equal(outcome.code, 2, outcome.text);
    assert.ok(!outcome.text.includes(MARKER.replace("-", "_")), outcome.text);
    assert.ok(codes(outcome).some((d) => d.code === "LMA-IO-003"), outcome.text);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});
