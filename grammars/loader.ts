/**
 * Loading the tree-sitter runtime and grammars from the embedded modules of `grammars/wasm/`,
 * with no permission at all: the bytes come from a lazily imported module (brotli, base64),
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
 * import assert from "node:assert/strict";
 * import { GrammarLoadError, loadLanguage } from "./loader.ts";
 * await assert.rejects(loadLanguage("yaml"), GrammarLoadError); // no grammar embedded
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
 * import assert from "node:assert/strict";
 * import { unpackWasm } from "./loader.ts";
 * import { CORE } from "./wasm/mod.ts";
 * assert.equal((await unpackWasm("core", CORE)).length, CORE.size);
 * ```
 */
export async function unpackWasm(name: string, wasm: EmbeddedWasm): Promise<Uint8Array> {
  const { brotliBase64 } = await wasm.load();
  const stream = new Blob([decodeBase64(brotliBase64)]).stream()
    .pipeThrough(new DecompressionStream("brotli"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  if (bytes.length !== wasm.size) {
    throw new GrammarLoadError(
      name,
      `embedded ${wasm.origin} unpacked to ${bytes.length} bytes, expected ${wasm.size}`,
    );
  }
  return bytes;
}

/** The runtime's own ceiling: web-tree-sitter 0.25 never grows its heap past 2 GiB. */
const RUNTIME_HEAP_MAXIMUM = 2 ** 31;
const PAGE = 65536;

/**
 * The linear memory of this isolate's tree-sitter runtime. It is made here, not by emscripten,
 * so the engine can read how large the heap has grown (a parse that needs too much memory is
 * stopped before the runtime aborts) and lower its ceiling.
 */
const heap = new WebAssembly.Memory({ initial: 512, maximum: RUNTIME_HEAP_MAXIMUM / PAGE });
const growHeap = heap.grow.bind(heap);
let heapCeiling = RUNTIME_HEAP_MAXIMUM;
// A refused growth is what the runtime sees when the machine has no more memory: malloc fails
// and the runtime aborts.
heap.grow = (pages: number): number => {
  if (heap.buffer.byteLength + pages * PAGE > heapCeiling) {
    throw new RangeError(`the parser heap may not grow past ${heapCeiling} bytes`);
  }
  return growHeap(pages);
};

/**
 * Bytes the tree-sitter heap of this isolate holds now (it grows, never shrinks).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parserHeapBytes } from "./loader.ts";
 * assert.ok(parserHeapBytes() >= 32 * 1024 * 1024);
 * ```
 */
export function parserHeapBytes(): number {
  return heap.buffer.byteLength;
}

/**
 * Sets how far the tree-sitter heap of this isolate may grow (default and most: 2 GiB, the
 * runtime's own limit). A parse that needs more aborts the runtime, as it would on a machine out
 * of memory; tests use it to cause a real abort with a small input.
 *
 * @example
 * ```ts
 * import { setParserHeapCeiling } from "./loader.ts";
 * setParserHeapCeiling(256 * 1024 * 1024); // a parse that needs more aborts the runtime
 * setParserHeapCeiling(undefined); // back to 2 GiB
 * ```
 */
export function setParserHeapCeiling(bytes: number | undefined): void {
  heapCeiling = Math.min(bytes ?? RUNTIME_HEAP_MAXIMUM, RUNTIME_HEAP_MAXIMUM);
}

/**
 * The runtime of this isolate aborted (out of memory, or a crash inside a grammar): emscripten
 * cannot recover from that, and every later call into it fails or corrupts memory, so nothing
 * may use it again. A fresh isolate (a new worker) has a fresh runtime.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ParserAbortedError } from "./loader.ts";
 * assert.equal(new ParserAbortedError("Aborted()").name, "ParserAbortedError");
 * ```
 */
export class ParserAbortedError extends Error {
  /** Builds the error from the runtime's message. */
  constructor(message: string) {
    super(message);
    this.name = "ParserAbortedError";
  }
}

let aborted: string | undefined;

/**
 * Records that the runtime of this isolate aborted with `error` (a `WebAssembly.RuntimeError`),
 * and returns the {@linkcode ParserAbortedError} to throw; other errors are returned unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runtimeFailure } from "./loader.ts";
 * const error = new TypeError("x");
 * assert.equal(runtimeFailure(error), error); // only a runtime error is the runtime's failure
 * ```
 */
export function runtimeFailure(error: unknown): unknown {
  if (!(error instanceof WebAssembly.RuntimeError)) return error;
  // emscripten's "Aborted(). Build with -sASSERTIONS for more info." says nothing useful.
  const what = error.message.replace(/\. Build with -sASSERTIONS.*$/, "");
  const message = `the parser runtime failed (${what}): out of memory, or a crash in the grammar`;
  aborted ??= message;
  return new ParserAbortedError(message);
}

/** Throws when the runtime of this isolate has aborted before. */
function assertRuntimeAlive(): void {
  if (aborted !== undefined) {
    throw new ParserAbortedError(`the parser runtime of this thread aborted earlier: ${aborted}`);
  }
}

/**
 * Whether the tree-sitter runtime of this isolate has aborted (then only a fresh isolate can
 * parse).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runtimeAborted } from "./loader.ts";
 * assert.equal(runtimeAborted(), false); // a fresh isolate
 * ```
 */
export function runtimeAborted(): boolean {
  return aborted !== undefined;
}

let runtime: Promise<void> | undefined;

/** Emscripten's loader of a side module (a grammar), as the runtime's module object holds it. */
type LoadSideModule = (
  binary: Uint8Array,
  flags: object,
  libName?: string,
  localScope?: Record<string, unknown>,
  handle?: number,
) => unknown;

/**
 * C library functions that grammar scanners of `tree-sitter-wasms` import and web-tree-sitter
 * 0.25's runtime does not export. Unresolved, a call throws "resolved is not a function" from
 * inside a parse (every bash `case` statement: 120 scripts of the Linux tree) and leaves the
 * runtime in an unknown state. `isalpha` is the C locale's; the failures abort as emscripten's
 * own `abort()` does, so the caller treats the runtime as spent.
 */
const MISSING_LIBC: Record<string, unknown> = {
  isalpha: (char: number) => (char >= 65 && char <= 90) || (char >= 97 && char <= 122) ? 1 : 0,
  __assert_fail: () => {
    throw new WebAssembly.RuntimeError("Aborted(an assertion of a grammar scanner failed)");
  },
  abort: () => {
    throw new WebAssembly.RuntimeError("Aborted(a grammar scanner called abort)");
  },
};

/**
 * Makes every grammar loaded through `module` resolve {@linkcode MISSING_LIBC}: `Language.load`
 * calls the module object's `loadWebAssemblyModule`, which looks a symbol up in the runtime's
 * exports first and then in the local scope it is given.
 */
function provideMissingLibc(module: { loadWebAssemblyModule?: LoadSideModule }): void {
  const load = module.loadWebAssemblyModule;
  if (!load) {
    throw new GrammarLoadError("core", "the tree-sitter runtime has no side-module loader");
  }
  module.loadWebAssemblyModule = (binary, flags, libName, localScope, handle) =>
    load(binary, flags, libName, { ...MISSING_LIBC, ...localScope }, handle);
}

/**
 * Initialises the web-tree-sitter runtime of this isolate from the embedded `tree-sitter.wasm`
 * (once; later calls share the first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { initTreeSitter } from "./loader.ts";
 * await assert.doesNotReject(initTreeSitter()); // once; later calls share the first
 * ```
 */
export function initTreeSitter(): Promise<void> {
  runtime ??= (async () => {
    const wasmBinary = await unpackWasm("core", CORE);
    // `wasmMemory` is read by emscripten's module factory, which web-tree-sitter's types omit;
    // the factory fills this object in and web-tree-sitter keeps it as its module.
    const module: { loadWebAssemblyModule?: LoadSideModule } & Record<string, unknown> = {
      wasmBinary,
      wasmMemory: heap,
      // An abort is reported where it is caught (with the file it happened on), not as a
      // bare "Aborted()" line on stderr.
      printErr: (message: string) => {
        if (!message.startsWith("Aborted(")) console.error(message);
      },
    };
    await Parser.init(module as Parameters<typeof Parser.init>[0]);
    provideMissingLibc(module);
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
 * Links the grammar module `bytes` (of language `name`) into this isolate's runtime. Throws
 * {@linkcode GrammarLoadError} for a module that does not link, and
 * {@linkcode ParserAbortedError} when the runtime trapped while linking (e.g. in a state an
 * earlier call left corrupt) or had aborted before: then a worker host must replace it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GrammarLoadError, linkGrammar } from "./loader.ts";
 * await assert.rejects(linkGrammar("none", new Uint8Array([0])), GrammarLoadError);
 * ```
 */
export async function linkGrammar(name: string, bytes: Uint8Array): Promise<Language> {
  await initTreeSitter();
  assertRuntimeAlive();
  try {
    return await link(bytes);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) throw runtimeFailure(error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new GrammarLoadError(name, `grammar ${name} failed to load: ${reason}`);
  }
}

/**
 * The grammar of a registry language, loaded once per isolate. Throws
 * {@linkcode GrammarLoadError} for an unknown or unsupported language or a damaged module, and
 * {@linkcode ParserAbortedError} when the runtime trapped (see {@linkcode linkGrammar}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLanguage } from "./loader.ts";
 * const rust = await loadLanguage("rust");
 * assert.notEqual(rust.idForNodeType("function_item", true), null); // a node type of Rust
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
    language = (async () => linkGrammar(info.name, await unpackWasm(info.name, wasm)))();
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
 * import assert from "node:assert/strict";
 * import { createParser } from "./loader.ts";
 * const parser = await createParser("python");
 * const tree = parser.parse("def f(): pass\n");
 * assert.equal(tree?.rootNode.type, "module");
 * tree?.delete();
 * parser.delete();
 * ```
 */
export async function createParser(name: string): Promise<Parser> {
  const language = await loadLanguage(name);
  assertRuntimeAlive();
  try {
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  } catch (error) {
    throw runtimeFailure(error);
  }
}
