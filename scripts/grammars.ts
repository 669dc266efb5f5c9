/**
 * `deno task grammars`: turns the pinned npm wasm files into the embedded modules of
 * `grammars/wasm/`, so that a run loads every grammar with no read permission, from a local
 * checkout, a remote module or a compiled binary alike.
 *
 * Each source file is checked against the SHA-256 pinned below before it is used; a mismatch
 * stops the build. Each wasm file becomes one JavaScript module holding its brotli stream as
 * base64 (imported lazily, one per language; JavaScript, not TypeScript, because Deno prepares
 * every TypeScript module of a run's graph at start, and these 3.7 MB cost a run that never
 * parses anything about 30 ms of CPU), and the definition queries of `grammars/queries/*.scm` become
 * `grammars/wasm/queries.ts`. The output is deterministic: running the task twice gives
 * byte-identical files. `--check` writes nothing and exits 1 when a committed file is stale
 * (a wasm module is stale when it does not decompress to the pinned bytes).
 *
 * Run: `deno task grammars` (or `deno task grammars --check`).
 *
 * @module
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LANGUAGES } from "../grammars/languages.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const GRAMMARS_DIR = join(REPO, "grammars");
const OUT = join(GRAMMARS_DIR, "wasm");
const QUERIES = join(GRAMMARS_DIR, "queries");

/** Where each npm package lives once `deno install --node-modules-dir=auto` made node_modules/. */
const CORE_PACKAGE = "web-tree-sitter@0.25.10";
const GRAMMAR_PACKAGE = "tree-sitter-wasms@0.1.13";
const CORE_FILE = join(REPO, "node_modules", "web-tree-sitter", "tree-sitter.wasm");
const GRAMMAR_DIR = join(REPO, "node_modules", "tree-sitter-wasms", "out");

/** SHA-256 of every source file, as published in the pinned npm versions. */
const PINNED: Readonly<Record<string, string>> = {
  "tree-sitter.wasm": "f38dcc4b43b818f9a0785bc1c6d5611a75ac4cdd428ff3f02757c34ca4e46d7f",
  "tree-sitter-bash.wasm": "807dcdb1380a59befb112ed8fbd3d3872c7fadaf5903a769282b50973b30696d",
  "tree-sitter-c.wasm": "056b25072382f72deee2c64ec238ffc4bb8cf42844ef21502c0e70f03a8a0d66",
  "tree-sitter-c_sharp.wasm": "6266a7e32d68a3459104d994dc848df15d5672b0ea8e86d327274b694f8e6991",
  "tree-sitter-cpp.wasm": "f6afdf53bfd6de76557bb7edb624a3a3869e14d9a83b78433f93617ecee42527",
  "tree-sitter-css.wasm": "5fc615467b1b98420ed7517e5bf9e1f88468132dd903d842dfb13714f6a1cb0c",
  "tree-sitter-dart.wasm": "7f5364e4256cf7e55efd01dd52421ef2663caa8061b82659b7e4bf61064545ec",
  "tree-sitter-elisp.wasm": "deedb03ccf150329ddfcc4ed92861c235bbae6f9692be6b93cac71617a4d42ab",
  "tree-sitter-elixir.wasm": "82e91b9759ddca30d8978ebbfa8e347b4451b64c931f9ae62112e6db9b8fac20",
  "tree-sitter-elm.wasm": "962b8668a0e16a6fb1fe232ba3e07ba4537a6b72c47293fddea0f6ea6ff9912e",
  "tree-sitter-embedded_template.wasm":
    "68584527f712dbf2cc39776c56980c08516991f184a4a17bb67c2f436f0fc373",
  "tree-sitter-go.wasm": "9963ca89b616eaf04b08a43bc1fb0f07b85395bec313330851f1f1ead2f755b6",
  "tree-sitter-html.wasm": "11b3405c1543fb012f5ed7f8ee73125076dce8b168301e1e787e4c717da6b456",
  "tree-sitter-java.wasm": "637aac4415fb39a211a4f4292d63c66b5ce9c32fa2cd35464af4f681d91b9a1f",
  "tree-sitter-javascript.wasm": "63812b9e275d26851264734868d27a1656bd44a2ef6eb3e85e6b03728c595ab5",
  "tree-sitter-json.wasm": "fdb5219abe058369e16897aaa11eecf47ef4f546752c3ddbac339cdd89e1e667",
  "tree-sitter-kotlin.wasm": "b5cb00c8d06ed0f10f1dbe497205b437809d7e87db1f638721a8cfb30e044449",
  "tree-sitter-lua.wasm": "75ef809136d610068c5b2135741d89f5df62690a3d55169203351cb7cc85727d",
  "tree-sitter-objc.wasm": "7c1b5bfdca7e64b6c63b6040bb7ba0afc347df116f9030ca32f8535d7377f6ff",
  "tree-sitter-ocaml.wasm": "60849b6320ee956233d77b017c65c45660e507d03ae70aa1bd5783458e2e9e18",
  "tree-sitter-php.wasm": "55bb617b6f01e14bab997861f0b20a2420cf6ba3199ffeb295b9ec398966d8a3",
  "tree-sitter-python.wasm": "9056d0fb0c337810d019fae350e8167786119da98f0f282aceae7ab89ee8253b",
  "tree-sitter-ql.wasm": "836b2a51f6b2b4605ef7bfa908b978fed0fe838afb4eabaa9451552f12e953c1",
  "tree-sitter-rescript.wasm": "ae18d46336768b6c0eea07eb0b003408848766b3b67df1d807b40cbd93017bda",
  "tree-sitter-ruby.wasm": "93a5022855314cdb45458c7bb026a24a0ebc3a5ff6439e542e881f14dfa13a39",
  "tree-sitter-rust.wasm": "4409921a70d0aa5bec7d1d7ce809a557a8ee1cf6ace901e3ac6a76e62cfea903",
  "tree-sitter-scala.wasm": "160cfbb8ff7220886e99ed9699abceb6d837b4cd28993b9282c7f445a0554abd",
  "tree-sitter-solidity.wasm": "160745e470f234cae903a9ba445d19e758d0b02e1197401fc765976c6254d2b6",
  "tree-sitter-swift.wasm": "41c4fdb2249a3aa6d87eed0d383081ff09725c2248b4977043a43825980ffcc7",
  "tree-sitter-systemrdl.wasm": "09129542bbea6d19aa33b54f93bae2b41128144970be13ce09af6697146c4527",
  "tree-sitter-tlaplus.wasm": "72a07f94b0bc88b9123a6e41058e37ab9ca70d84a03b79511b25af7f435129b5",
  "tree-sitter-toml.wasm": "7849ac8ce9d10a4684ca189ea8ad3654c20c38acb2d674a014a164398cbd37a2",
  "tree-sitter-tsx.wasm": "6aa3b2c70e76f5d48eafef1093e9c4de383e13f2fdde2f4e9b98a378f6a8f1b6",
  "tree-sitter-typescript.wasm": "8515404dceed38e1ed86aa34b09fcf3379fff1b4ff9dd3967bcd6d1eb5ac3d8f",
  "tree-sitter-vue.wasm": "6244521bb3fb60f34ce5f677f2af81facb2c38691193985ca5fa85e1b6f29250",
  "tree-sitter-zig.wasm": "59cc4531aa661e2de4c5bc04e4045b6bdd5d2bfa75045cbda5f673102d140eef",
};

const HEADER = "// Generated by `deno task grammars` (scripts/grammars.ts). Do not edit.\n";

/** A source wasm file, verified. */
interface Source {
  /** Name of the module written for it (without `.js`). */
  module: string;
  /** `npm:<package>/<path>` it came from. */
  origin: string;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its SHA-256, hex. */
  sha256: string;
}

function readVerified(path: string, file: string, origin: string, module: string): Source {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`${path} is missing: run \`deno install\` first (nodeModulesDir is auto)`, {
        cause: error,
      });
    }
    throw error;
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== PINNED[file]) {
    throw new Error(
      `${origin}: SHA-256 ${sha256} differs from the pinned ${PINNED[file]}; refusing to embed it`,
    );
  }
  return { module, origin, bytes, sha256 };
}

function sources(): Source[] {
  const list = [
    readVerified(CORE_FILE, "tree-sitter.wasm", `npm:${CORE_PACKAGE}/tree-sitter.wasm`, "core"),
  ];
  for (const info of LANGUAGES) {
    if (info.unsupported) continue;
    const origin = `npm:${GRAMMAR_PACKAGE}/out/${info.grammar}`;
    list.push(readVerified(join(GRAMMAR_DIR, info.grammar), info.grammar, origin, info.name));
  }
  return list;
}

/**
 * Brotli at its densest: 39 % fewer bytes than gzip -9 over these grammars (2.8 MB against
 * 4.5 MB). Every tool whose module graph holds the grammars pays to read and hash them at
 * start-up, whether it parses anything or not, so the bytes are worth the slower build.
 */
function brotli(bytes: Uint8Array): Uint8Array {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

function wasmModule(source: Source): string {
  const packed = brotli(source.bytes);
  const base64 = btoa(Array.from(packed, (byte) => String.fromCharCode(byte)).join(""));
  return `${HEADER}// Source: ${source.origin} (${source.bytes.length} bytes, sha256:${source.sha256}).\n` +
    `/** The wasm file, brotli-compressed, base64-encoded. */\n` +
    `export const brotliBase64 = "${base64}";\n`;
}

function indexModule(list: Source[]): string {
  const fields = (source: Source, pad: string) =>
    `${pad}origin: ${JSON.stringify(source.origin)},\n` +
    `${pad}size: ${source.bytes.length},\n` +
    `${pad}sha256: "${source.sha256}",\n` +
    `${pad}load: () => import("./${source.module}.js"),\n`;
  const [core, ...grammars] = list;
  const grammarEntries = grammars
    .map((source) => `  ${JSON.stringify(source.module)}: {\n${fields(source, "    ")}  },\n`)
    .join("");
  return `${HEADER}/**
 * The embedded wasm files: where each came from, its size and SHA-256 once decompressed, and
 * the lazy import of its module (a literal specifier, so \`deno compile\`, \`deno publish\` and
 * remote runs see every module).
 *
 * @module
 */

/** An embedded wasm file. */
export interface EmbeddedWasm {
  /** The npm file it was built from. */
  origin: string;
  /** Size in bytes, decompressed. */
  size: number;
  /** SHA-256 of the decompressed bytes, hex. */
  sha256: string;
  /** Imports the module holding the brotli stream, base64-encoded. */
  load: () => Promise<{ brotliBase64: string }>;
}

/** The web-tree-sitter runtime (\`tree-sitter.wasm\`). */
export const CORE: EmbeddedWasm = {
${fields(core, "  ")}};

/** Grammar of each supported language, by registry name. */
export const GRAMMARS: Readonly<Record<string, EmbeddedWasm>> = {
${grammarEntries}};
`;
}

/**
 * The text of `grammars/queries/<name>.scm` followed by the queries it inherits (a first line
 * `; inherits: other`), so its own, more specific patterns come first.
 */
function resolveQuery(name: string, seen: string[] = []): string {
  if (seen.includes(name)) {
    throw new Error(`grammars/queries: inheritance cycle ${seen.join(" → ")}`);
  }
  const text = Deno.readTextFileSync(join(QUERIES, `${name}.scm`));
  const parent = /^; inherits: (\S+)/.exec(text)?.[1];
  return parent ? `${text}\n${resolveQuery(parent, [...seen, name])}` : text;
}

function queriesModule(): string {
  const names = [...Deno.readDirSync(QUERIES)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".scm"))
    .map((entry) => entry.name.slice(0, -".scm".length))
    .sort();
  const known = new Set(LANGUAGES.map((info) => info.name));
  const entries = names.map((name) => {
    if (!known.has(name)) throw new Error(`grammars/queries/${name}.scm: no such language`);
    return `  ${JSON.stringify(name)}: ${JSON.stringify(resolveQuery(name))},\n`;
  });
  return `${HEADER}/**
 * The definition queries of \`grammars/queries/*.scm\`, embedded so they load without any
 * permission (a query that inherits another is followed by it). Edit the \`.scm\` files and
 * run \`deno task grammars\`.
 *
 * @module
 */

/** Definition query of each language that has one, by registry name. */
export const DEFINITION_QUERIES: Readonly<Record<string, string>> = {
${entries.join("")}};
`;
}

/**
 * Every generated file: path relative to `grammars/wasm/` → its text, or, when `fast`, a
 * check of the existing text (the wasm modules are checked by what they decompress to, which
 * is much faster than compressing them again).
 */
function generate(fast: boolean): Map<string, string | ((existing: string) => boolean)> {
  const list = sources();
  const files = new Map<string, string | ((existing: string) => boolean)>();
  for (const source of list) {
    files.set(
      `${source.module}.js`,
      fast ? (existing) => embeds(existing, source) : wasmModule(source),
    );
  }
  files.set("mod.ts", indexModule(list));
  files.set("queries.ts", queriesModule());
  return files;
}

/** Whether the module text `existing` holds exactly the bytes of `source`. */
function embeds(existing: string, source: Source): boolean {
  const base64 = /brotliBase64 = "([A-Za-z0-9+/=]*)"/.exec(existing)?.[1];
  if (!base64 || !existing.includes(`sha256:${source.sha256}`)) return false;
  let bytes: Uint8Array;
  try {
    bytes = brotliDecompressSync(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
  } catch {
    // Damaged base64 or brotli: the module is stale by definition.
    return false;
  }
  return createHash("sha256").update(bytes).digest("hex") === source.sha256;
}

function readOrEmpty(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}

function main(args: string[]): number {
  const check = args.includes("--check");
  const files = generate(check);
  const stale = [...files].filter(([name, expected]) => {
    const existing = readOrEmpty(join(OUT, name));
    return typeof expected === "string" ? existing !== expected : !expected(existing);
  });
  const extra = [...Deno.readDirSync(OUT)].map((entry) => entry.name)
    .filter((name) => /\.[jt]s$/.test(name) && !files.has(name));
  if (check) {
    for (const [name] of stale) console.error(`stale: grammars/wasm/${name}`);
    for (const name of extra) console.error(`not generated: grammars/wasm/${name}`);
    if (stale.length || extra.length) {
      console.error("Run `deno task grammars` and commit grammars/wasm/.");
      return 1;
    }
    console.error(`grammars/wasm/ is up to date (${files.size} files).`);
    return 0;
  }
  let total = 0;
  for (const [name, text] of files) {
    if (typeof text !== "string") continue;
    total += text.length;
    if (stale.some(([staleName]) => staleName === name)) {
      Deno.writeTextFileSync(join(OUT, name), text);
    }
  }
  for (const name of extra) Deno.removeSync(join(OUT, name));
  console.error(
    `grammars/wasm/: ${files.size} files, ${(total / 1e6).toFixed(2)} MB; ` +
      `${stale.length} written, ${extra.length} removed.`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(main(Deno.args));
