/**
 * ripgrep is the oracle of the file types: every type of the table, defined in ripgrep with the
 * same globs (`--type-add`), must keep exactly the files `--type` keeps here, and drop exactly
 * those `--type-not` drops, on names made to match, nearly match and fold case.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FILE_TYPE_NAMES, FILE_TYPES } from "./file_types.ts";
import { PathFilter } from "./path_filter.ts";

const hasRg = (() => {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/** Names a glob matches and names that come close: case, a prefix, a suffix, a dot. */
function namesNear(glob: string): string[] {
  const stem = glob.replaceAll("*", "x");
  const bare = glob.replaceAll("*", "");
  return [stem, stem.toUpperCase(), `a${stem}`, `${stem}.bak`, `${stem}x`, `.${stem}`, bare];
}

/** Every name the table's globs suggest, once each, without characters no file name holds. */
function sampleNames(): string[] {
  const names = new Set<string>(["x", "Makefile.am", "Kconfig", "kconfig", "a.c++", "b.h++"]);
  for (const type of FILE_TYPE_NAMES) {
    for (const glob of FILE_TYPES[type]) for (const name of namesNear(glob)) names.add(name);
  }
  return [...names].filter((name) => name !== "" && !name.includes("/")).sort();
}

/** The names ripgrep lists in `dir` with `args` and the type defined by the table's globs. */
function rgNames(dir: string, type: string, flag: "-t" | "-T"): string[] {
  const typeAdds = FILE_TYPES[type].flatMap((glob) => ["--type-add", `probe:${glob}`]);
  const output = new Deno.Command("rg", {
    args: [
      "--files",
      "--no-config",
      "--hidden",
      "--type-clear",
      "probe",
      ...typeAdds,
      flag,
      "probe",
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.ok(output.code === 0 || output.code === 1, new TextDecoder().decode(output.stderr));
  return new TextDecoder().decode(output.stdout).split("\n").filter(Boolean).sort();
}

Deno.test({
  name: "every file type keeps and drops exactly the files ripgrep does with the same globs",
  ignore: !hasRg,
  fn() {
    const dir = Deno.makeTempDirSync();
    try {
      const names = sampleNames();
      for (const name of names) Deno.writeTextFileSync(join(dir, name), "");
      const listed = Deno.readDirSync(dir).map((entry) => entry.name).toArray().sort();
      let kept = 0;
      for (const type of FILE_TYPE_NAMES) {
        const only = new PathFilter("LMS", [], [type]);
        const not = new PathFilter("LMS", [], [], [type]);
        const ours = listed.filter((name) => only.typeVerdict(name, false) === "whitelist");
        const oursNot = listed.filter((name) => not.typeVerdict(name, false) !== "ignore");
        assert.deepEqual(ours, rgNames(dir, type, "-t"), `--type ${type}`);
        assert.deepEqual(oursNot, rgNames(dir, type, "-T"), `--type-not ${type}`);
        kept += ours.length;
      }
      // The sample is worth something only if types keep some files and drop others.
      assert.ok(kept > FILE_TYPE_NAMES.length && kept < listed.length * FILE_TYPE_NAMES.length);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
