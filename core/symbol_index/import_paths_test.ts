import assert from "node:assert/strict";
import { importPatterns, patternMatches } from "./import_paths.ts";

function reaches(
  language: string,
  from: string,
  target: string,
  kind: "include" | "import",
  path: string,
) {
  return importPatterns(language, from, target, kind).some((pattern) =>
    patternMatches(pattern, path)
  );
}

Deno.test("C includes reach the file beside the includer, or one under an include path", () => {
  assert.ok(reaches("c", "src/main.c", "util.h", "include", "src/util.h"));
  assert.ok(reaches("c", "src/main.c", "linux/sched.h", "include", "include/linux/sched.h"));
  assert.ok(reaches("c", "src/a/main.c", "../b/x.h", "include", "src/b/x.h"));
  assert.ok(!reaches("c", "src/main.c", "sched.h", "include", "include/linux/xsched.h"));
});

Deno.test("script imports are relative, with the extensions a bundler tries", () => {
  assert.ok(reaches("typescript", "src/main.ts", "./greet.ts", "import", "src/greet.ts"));
  assert.ok(reaches("typescript", "src/main.ts", "./greet.js", "import", "src/greet.ts"));
  assert.ok(reaches("javascript", "src/main.js", "../lib", "import", "lib/index.js"));
  assert.ok(!reaches("typescript", "src/main.ts", "zod", "import", "zod.ts"));
});

Deno.test("Python, Rust and Java module paths", () => {
  assert.ok(reaches("python", "pkg/a.py", ".b", "import", "pkg/b.py"));
  assert.ok(reaches("python", "pkg/sub/a.py", "..b", "import", "pkg/b.py"));
  assert.ok(reaches("python", "app.py", "pkg.mod", "import", "src/pkg/mod.py"));
  assert.ok(reaches("python", "app.py", "pkg", "import", "pkg/__init__.py"));
  assert.ok(reaches("rust", "src/main.rs", "crate::store::Index", "import", "src/store.rs"));
  assert.ok(reaches("rust", "src/main.rs", "crate::store::Index", "import", "src/store/mod.rs"));
  assert.ok(reaches("java", "A.java", "com.x.List", "import", "src/com/x/List.java"));
});
