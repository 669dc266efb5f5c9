import assert from "node:assert/strict";
import { decodeFile } from "../../core/utf8.ts";
import { aliasesOfModule, boundModules, staticallyImported } from "./module_names.ts";
import type { Def, ImportDecl, LoadedFile } from "./view.ts";

function fileOf(path: string, language: string, imports: ImportDecl[]): LoadedFile {
  return {
    path,
    absPath: `/${path}`,
    language,
    fileId: 1,
    ...decodeFile(new Uint8Array()),
    defs: [],
    uses: [],
    imports,
    parseErrors: 0,
  };
}

function defIn(path: string, language: string, name: string, parent: string | null = null): Def {
  return {
    file_id: 2,
    path,
    language,
    symbol_id: "0000000000000000",
    name,
    qualified_name: parent ? `${parent}.${name}` : name,
    kind: parent ? "method" : "function",
    parent,
    signature: "",
    byte_start: 0,
    byte_end: 0,
    start_line: 1,
    start_col: 0,
    end_line: 1,
    end_col: 0,
  };
}

Deno.test("module aliases: each language's import forms bind the names they write", () => {
  const python = fileOf("main.py", "python", [
    { target: "pkg.tools", text: "import pkg.tools as pt, os" },
    { target: "pkg", text: "from pkg import (tools as t,\n    other)" },
    { target: ".", text: "from . import util as u" },
  ]);
  assert.deepEqual([...boundModules(python)].sort(), ["pt", "t", "u"]);
  const tools = defIn("pkg/tools.py", "python", "helper");
  assert.deepEqual([...aliasesOfModule(python, tools)].sort(), ["pt", "t"]);
  assert.deepEqual([...aliasesOfModule(python, defIn("util.py", "python", "f"))], ["u"]);

  const script = fileOf("src/a.ts", "typescript", [
    { target: "./m.ts", text: 'import * as ns from "./m.ts";' },
    { target: "./m.ts", text: 'import def, * as both from "./m.ts";' },
    { target: "./n.ts", text: 'import { x as y } from "./n.ts";' },
  ]);
  assert.deepEqual([...aliasesOfModule(script, defIn("src/m.ts", "typescript", "f"))], [
    "ns",
    "both",
  ]);
  assert.deepEqual([...aliasesOfModule(script, defIn("src/n.ts", "typescript", "x"))], []);

  const go = fileOf("main.go", "go", [
    { target: "example.com/demo/util", text: 'u2 "example.com/demo/util"' },
    { target: "example.com/demo/util/v2", text: '"example.com/demo/util/v2"' },
  ]);
  assert.deepEqual([...aliasesOfModule(go, defIn("util/util.go", "go", "Helper"))], ["u2"]);

  const rust = fileOf("main.rs", "rust", [
    { target: "crate::util", text: "use crate::util as u;" },
    { target: "util::helper", text: "pub(crate) use util::helper as h;" },
  ]);
  assert.deepEqual([...aliasesOfModule(rust, defIn("util.rs", "rust", "helper"))], ["u", "h"]);
});

Deno.test("static imports: by name or with the class's *, not another class's", () => {
  const helper = defIn("pkg/Util.java", "java", "helper", "Util");
  const file = (text: string) => fileOf("Main.java", "java", [{ target: "pkg.Util", text }]);
  assert.equal(staticallyImported(file("import static pkg.Util.helper;"), helper), true);
  assert.equal(staticallyImported(file("import static pkg . Util . *;"), helper), true);
  assert.equal(staticallyImported(file("import static pkg.Util.other;"), helper), false);
  assert.equal(staticallyImported(file("import static pkg.Other.*;"), helper), false);
  assert.equal(staticallyImported(file("import pkg.Util;"), helper), false);
});
