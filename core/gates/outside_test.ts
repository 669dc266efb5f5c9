import assert from "node:assert/strict";
import { join } from "../path_syntax.ts";
import { ReadScope } from "./outside.ts";

/** Runs `test` in a temporary folder holding `files`, removed afterwards. */
function inFolder(files: Record<string, string>, test: (dir: string) => void): void {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    for (const [path, text] of Object.entries(files)) {
      Deno.mkdirSync(join(dir, path, ".."), { recursive: true });
      Deno.writeTextFileSync(join(dir, path), text);
    }
    test(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("a read counts by where it leads: a link inside the root that points out is outside", () => {
  inFolder({ "root/a.h": "", "out/secret.h": "", "sys/stdio.h": "" }, (dir) => {
    const root = join(dir, "root");
    Deno.symlinkSync(join(dir, "out", "secret.h"), join(root, "link.h"));
    const scope = new ReadScope(root, [join(dir, "sys")]);
    assert.equal(scope.isOutside(join(root, "a.h")), false);
    assert.equal(scope.isOutside(join(root, "link.h")), true);
    assert.equal(scope.isOutside(join(dir, "sys", "stdio.h")), false, "the toolchain's own");
    assert.equal(scope.isOutside(join(dir, "sys", "..", "out", "secret.h")), true);
    assert.equal(scope.isOutside(join(root, "missing.h")), false);
  });
});
