/**
 * Unified diffs for `--dry-run` (npm `diff`), over the files' text as decoded from UTF-8.
 *
 * @module
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The unified diff of one file, `a/PATH` → `b/PATH`, with three lines of context. A file that
 * does not exist on one side is `/dev/null` there.
 *
 * @example
 * ```ts
 * import { unifiedDiff } from "@llm/search/transform";
 * const encode = (text: string) => new TextEncoder().encode(text);
 * unifiedDiff("a.txt", encode("one\n"), encode("two\n")).includes("-one"); // true
 * ```
 */
export function unifiedDiff(
  filePath: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
): string {
  return createTwoFilesPatch(
    before ? `a/${filePath}` : "/dev/null",
    after ? `b/${filePath}` : "/dev/null",
    before ? decoder.decode(before) : "",
    after ? decoder.decode(after) : "",
    undefined,
    undefined,
    // `---`/`+++` headers without the `Index:`/`====` lines `git apply` and `patch` do not need.
    { context: 3, headerOptions: FILE_HEADERS_ONLY },
  );
}
