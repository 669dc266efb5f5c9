/**
 * What a compiler's output says, before it becomes contract diagnostics: each checker's parser
 * (`parsers.ts`) turns the compiler's own output into these, and `compiler.ts` maps them onto
 * the user's file.
 *
 * @module
 */
import type { DiagnosticLevel } from "../../schema/diagnostic.ts";

/** One message of a compiler, as it gave it. */
export interface NativeDiagnostic {
  /** The file as the compiler named it (absent: the checked file itself). */
  file?: string;
  /** 1-based line. */
  line?: number;
  /**
   * 0-based column, in bytes (`columnUnit: "byte"`) or UTF-16 code units of the line
   * (`"utf16"`: what JavaScript engines and Python count, once converted from 1-based).
   */
  column?: number;
  /** What `column` counts. */
  columnUnit?: "byte" | "utf16";
  /** Exact byte range in the checked file, when the compiler gives one (rustc). */
  byteRange?: [number, number];
  /** Severity. */
  level: DiagnosticLevel;
  /** The compiler's message, verbatim. */
  message: string;
  /** The compiler's own code (`-Wunused-variable`, `E0308`, `TS2322`, `SyntaxError`). */
  nativeCode?: string;
  /** Further lines the compiler gave (javac's `symbol:`, rustc's and gcc's child notes). */
  note?: string;
  /** The other files its spans and notes point into, as the compiler named them. */
  mentions?: string[];
  /** A documentation link for the code, when the compiler gives one. */
  url?: string;
}
