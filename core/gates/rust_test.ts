import assert from "node:assert/strict";
import { join } from "../path_syntax.ts";
import { folderMayIncludeFiles, mayIncludeFiles, projectCode, projectToolchain } from "./rust.ts";

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

Deno.test("the project's toolchain is honoured by channel only, never by path", () => {
  const cases: [Record<string, string>, string | undefined][] = [
    [
      { "rust-toolchain.toml": '[toolchain]\nchannel = "nightly-2024-05-01"\n' },
      "nightly-2024-05-01",
    ],
    [{ "rust-toolchain": "1.79.0\n" }, "1.79.0"],
    [{ "rust-toolchain.toml": '[toolchain]\npath = "/opt/evil"\nchannel = "stable"\n' }, undefined],
    [{ "rust-toolchain.toml": '[toolchain]\nchannel = "/opt/evil"\n' }, undefined],
    [{ "rust-toolchain.toml": '[toolchain]\nchannel = "../x"\n' }, undefined],
    [{}, undefined],
  ];
  for (const [files, expected] of cases) {
    inFolder({ ...files, "src/.keep": "" }, (root) => {
      assert.equal(projectToolchain(root, join(root, "src")), expected, JSON.stringify(files));
    });
  }
  // A file above the root is not the project's.
  inFolder({ "rust-toolchain": "nightly\n", "app/src/.keep": "" }, (dir) => {
    assert.equal(projectToolchain(join(dir, "app"), join(dir, "app", "src")), undefined);
  });
});

Deno.test("Rust text that may read files its diagnostics do not locate", () => {
  assert.ok(mayIncludeFiles('const K: &str = include_str!("/etc/hostname");'));
  assert.ok(mayIncludeFiles('const B: &[u8] = std::include_bytes!("x");'));
  assert.ok(mayIncludeFiles('#[path = "/etc/passwd"]\nmod m;'));
  assert.ok(mayIncludeFiles('#[cfg_attr(unix, path = "x.rs")]\nmod m;'));
  assert.ok(!mayIncludeFiles("mod util;\nfn main() { let path = 1; }\n"));
  inFolder({ "a.rs": "fn a() {}\n", "sub/b.rs": "fn b() {}\n" }, (dir) => {
    assert.equal(folderMayIncludeFiles(dir), false);
    Deno.writeTextFileSync(join(dir, "sub", "c.rs"), 'include!("x.rs");\n');
    assert.equal(folderMayIncludeFiles(dir), true);
  });
  inFolder({ "a.rs": "fn a() {}\n" }, (dir) => {
    Deno.symlinkSync("/", join(dir, "up"));
    assert.equal(folderMayIncludeFiles(dir), true, "a link may lead anywhere");
  });
});

Deno.test("what cargo check would run: build scripts and proc macros", () => {
  assert.deepEqual(
    projectCode([
      { name: "app", source: null, dir: "/w/app", kinds: ["bin", "custom-build"] },
      { name: "derive", source: "registry+x", dir: "/r/derive", kinds: ["proc-macro"] },
      { name: "util", source: null, dir: "/w/util", kinds: ["lib"] },
    ]),
    ["the build script of app", "the proc macro derive"],
  );
});
