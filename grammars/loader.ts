/**
 * Loading the tree-sitter runtime and grammars from the embedded modules of `grammars/wasm/`,
 * with no permission at all: the bytes come from a lazily imported module (gzip, base64),
 * `DecompressionStream` unpacks them, and web-tree-sitter gets them as `wasmBinary` and
 * `Language.load(bytes)`, so it never reads a file or fetches a URL.
 *
 * Each isolate (the main thread and every worker) loads the runtime once and each grammar at
 * most once, on first use.
 *
 * @module
 */
import { Language, Parser } from "web-tree-sitter";
import { CORE, type EmbeddedWasm, GRAMMARS } from "./wasm/mod.ts";
import { languageByName } from "./languages.ts";

/**
 * A grammar (or the runtime) could not be loaded; `language` is `"core"` for the runtime.
 *
 * @example
 * ```ts
 * import { GrammarLoadError, loadLanguage } from "@llm/search/ast-search";
 * await loadLanguage("yaml").catch((error) => error instanceof GrammarLoadError); // true
 * ```
 */
export class GrammarLoadError extends Error {
  /** Registry name of the language, or `"core"`. */
  readonly language: string;

  /** Builds the error. */
  constructor(language: string, message: string) {
    super(message);
    this.name = "GrammarLoadError";
    this.language = language;
  }
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> })
    .fromBase64;
  if (native) return native(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The decompressed bytes of an embedded wasm file, checked against its recorded size.
 *
 * @example
 * ```ts
 * import { unpackWasm } from "./loader.ts";
 * import { CORE } from "./wasm/mod.ts";
 * (await unpackWasm("core", CORE)).length === CORE.size; // true
 * ```
 */
export async function unpackWasm(name: string, wasm: EmbeddedWasm): Promise<Uint8Array> {
  const { gzipBase64 } = await wasm.load();
  const stream = new Blob([decodeBase64(gzipBase64)]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  if (bytes.length !== wasm.size) {
    throw new GrammarLoadError(
      name,
      `embedded ${wasm.origin} unpacked to ${bytes.length} bytes, expected ${wasm.size}`,
    );
  }
  return bytes;
}

let runtime: Promise<void> | undefined;

/**
 * Initialises the web-tree-sitter runtime of this isolate from the embedded `tree-sitter.wasm`
 * (once; later calls share the first).
 *
 * @example
 * ```ts
 * import { initTreeSitter } from "@llm/search/ast-search";
 * await initTreeSitter();
 * ```
 */
export function initTreeSitter(): Promise<void> {
  runtime ??= (async () => {
    const wasmBinary = await unpackWasm("core", CORE);
    await Parser.init({ wasmBinary });
  })();
  return runtime;
}

const loaded = new Map<string, Promise<Language>>();

/**
 * The tail of the chain that serialises `Language.load`: emscripten's dynamic linker keeps
 * global state while it instantiates a side module, so two loads at once corrupt each other
 * ("bad export type for 'tree_sitter_rust_…'"). Unpacking may overlap; linking may not.
 */
let linking: Promise<unknown> = Promise.resolve();

function link(bytes: Uint8Array): Promise<Language> {
  const next = linking.then(() => Language.load(bytes));
  linking = next.catch(() => undefined);
  return next;
}

/**
 * The grammar of a registry language, loaded once per isolate. Throws
 * {@linkcode GrammarLoadError} for an unknown or unsupported language or a damaged module.
 *
 * @example
 * ```ts
 * import { loadLanguage } from "@llm/search/ast-search";
 * const rust = await loadLanguage("rust");
 * rust.name; // "rust"
 * ```
 */
export function loadLanguage(name: string): Promise<Language> {
  const info = languageByName(name);
  const wasm = info && GRAMMARS[info.name];
  if (!info || !wasm) {
    const why = info?.unsupported ?? "it is not in the registry";
    return Promise.reject(new GrammarLoadError(name, `no grammar for ${name}: ${why}`));
  }
  let language = loaded.get(info.name);
  if (!language) {
    language = (async () => {
      await initTreeSitter();
      const bytes = await unpackWasm(info.name, wasm);
      try {
        return await link(bytes);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new GrammarLoadError(info.name, `grammar ${info.name} failed to load: ${reason}`);
      }
    })();
    // A failed load is not kept, so a later call can retry.
    language.catch(() => loaded.delete(info.name));
    loaded.set(info.name, language);
  }
  return language;
}

/**
 * A parser for a registry language (the grammar loaded as by {@linkcode loadLanguage}).
 * Free it with `parser.delete()` when done.
 *
 * @example
 * ```ts
 * import { createParser } from "@llm/search/ast-search";
 * const parser = await createParser("python");
 * const tree = parser.parse("def f(): pass\n");
 * tree?.rootNode.type; // "module"
 * tree?.delete();
 * parser.delete();
 * ```
 */
export async function createParser(name: string): Promise<Parser> {
  const language = await loadLanguage(name);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
