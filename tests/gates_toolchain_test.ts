/**
 * The compiler a gate runs and the version it reports are found once and kept only while they
 * hold: a long-lived host (the MCP server) must notice a compiler upgraded in place, a PATH
 * that names another one, and a program added to a folder searched earlier, and must not ask
 * `--version` again while nothing changed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { validateFile } from "../core/gates/mod.ts";
import { makeTree, testInOwnProcess } from "./helpers.ts";

/** Longer than the window in which the toolchain cache does not trust a changed file. */
const SETTLE_MS = 2_100;

/** The real bash, which each fake runs for the check itself. */
const BASH = "/bin/bash";

/**
 * Writes a `bash` into `folder` that prints `version` for `--version` (and counts those calls
 * in `probes`) and runs the real bash otherwise.
 */
function fakeBash(folder: string, version: string, probes: string): void {
  Deno.writeTextFileSync(
    join(folder, "bash"),
    `#!${BASH}\nif [ "$1" = --version ]; then echo x >> '${probes}'; echo '${version}'; ` +
      `exit 0; fi\nexec ${BASH} "$@"\n`,
    { mode: 0o755 },
  );
}

/** How many times a fake answered `--version`. */
function probeCount(probes: string): number {
  try {
    return Deno.readTextFileSync(probes).split("\n").length - 1;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

// It sets PATH: in a process of its own.
testInOwnProcess(import.meta.url, {
  name: "the compiler's version is kept while the program and PATH hold, and follows a change",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const root = await makeTree({ "run.sh": "echo hi\n", "bin/a/.keep": "", "bin/b/.keep": "" });
    const saved = Deno.env.get("PATH") ?? "";
    const [a, b, probes] = [join(root, "bin/a"), join(root, "bin/b"), join(root, "probes")];
    const gate = async () => {
      const report = await validateFile({
        root,
        filePath: "run.sh",
        bytes: new TextEncoder().encode("echo hi\n"),
      });
      const bash = report.gates.find((outcome) => outcome.name === "bash")!;
      assert.equal(bash.status, "passed", JSON.stringify(report.diagnostics));
      return [bash.tool_path, bash.tool_version];
    };
    try {
      fakeBash(a, "fake bash 1", probes);
      await new Promise((settled) => setTimeout(settled, SETTLE_MS));
      Deno.env.set("PATH", `${b}:${a}:${saved}`);
      assert.deepEqual(await gate(), [join(a, "bash"), "fake bash 1"]);
      assert.deepEqual(await gate(), [join(a, "bash"), "fake bash 1"]);
      assert.equal(probeCount(probes), 1, "an unchanged compiler is asked its version once");

      fakeBash(a, "fake bash 2", probes);
      assert.deepEqual(await gate(), [join(a, "bash"), "fake bash 2"], "upgraded in place");

      fakeBash(b, "fake bash 3", probes);
      assert.deepEqual(
        await gate(),
        [join(b, "bash"), "fake bash 3"],
        "added to an earlier folder",
      );

      Deno.env.set("PATH", `${a}:${saved}`);
      assert.deepEqual(await gate(), [join(a, "bash"), "fake bash 2"], "another PATH");
    } finally {
      Deno.env.set("PATH", saved);
      await Deno.remove(root, { recursive: true });
    }
  },
});
