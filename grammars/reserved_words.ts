/**
 * The names each language of `llm-refactor rename` refuses as a new name: its keywords, and the
 * few other names its specification forbids a definition to take. A rename to one of them
 * leaves code such as `int int(int x)`, which the syntax gate cannot be relied on to refuse
 * (tree-sitter's grammars recover from it), so the rename refuses it before any edit.
 *
 * Plain data with no imports, like `languages.ts`. Each list is taken from the language's
 * specification (named above it); `tests/reserved_words_oracle_test.ts` holds the lists of the
 * languages whose compiler is installed to what that compiler refuses.
 *
 * @module
 */

/** What one language forbids a new name to be. */
interface LanguageRules {
  /** Its name in messages. */
  display: string;
  /** Keywords (and literals, alternative tokens): no definition may take them. */
  keywords: readonly string[];
  /** Names that are no keywords but that the language forbids a definition (or its uses) to take. */
  forbidden?: readonly string[];
  /** Like `forbidden`, but a method (named after a receiver, `obj.init()`) may take them. */
  forbiddenButMethods?: readonly string[];
  /** Names a type (class, struct, interface, enum, type alias, trait, union) may not take. */
  typeNames?: readonly string[];
  /** Names the language reserves by their form, with the reason, e.g. C's `__x` and `_X`. */
  reservedForm?: { pattern: RegExp; why: string };
  /** Methods may take any keyword (they are always named after a receiver: `obj.delete()`). */
  methodsTakeKeywords?: boolean;
}

/** The words of a list written one after another, separated by white space. */
function words(list: string): readonly string[] {
  return list.trim().split(/\s+/);
}

/** Kinds of definition that name a type. */
const TYPE_KINDS = new Set(["class", "struct", "interface", "enum", "type", "trait", "union"]);

/**
 * C23 §6.4.1 (which keeps C11's `_Alignas`, `_Alignof`, `_Bool`, `_Static_assert` and
 * `_Thread_local` as alternative spellings), so that a name stays valid when a C11 project
 * moves to C23; and `asm`, a keyword of GCC's default `gnu` modes (the compiler gate's) and a
 * common extension (C23 J.5.10).
 */
const C_KEYWORDS = words(`
  _Alignas _Alignof _Atomic _BitInt _Bool _Complex _Decimal128 _Decimal32 _Decimal64 _Generic
  _Imaginary _Noreturn _Static_assert _Thread_local alignas alignof asm auto bool break case char
  const constexpr continue default do double else enum extern false float for goto if inline int
  long nullptr register restrict return short signed sizeof static static_assert struct switch
  thread_local true typedef typeof typeof_unqual union unsigned void volatile while
`);

/**
 * C++23 [lex.key] (table 5) and the alternative tokens of [lex.digraph] (table 6, `and`, `or`,
 * …, which are operators, not names); and `typeof`, a keyword of GCC's default `gnu++` modes.
 * The identifiers with a special meaning (`final`, `override`, `import`, `module`) stay names.
 */
const CPP_KEYWORDS = words(`
  alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t
  char8_t class co_await co_return co_yield compl concept const const_cast consteval constexpr
  constinit continue decltype default delete do double dynamic_cast else enum explicit export
  extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
  nullptr operator or or_eq private protected public register reinterpret_cast requires return
  short signed sizeof static static_assert static_cast struct switch template this thread_local
  throw true try typedef typeid typename typeof union unsigned using virtual void volatile
  wchar_t while xor xor_eq
`);

/**
 * Python's `keyword.kwlist` (3.11–3.13). The soft keywords (`keyword.softkwlist`: `_`, `case`,
 * `match`, and `type` since 3.12) are keywords only in their statements and stay valid names.
 */
const PYTHON_KEYWORDS = words(`
  False None True and as assert async await break class continue def del elif else except finally
  for from global if import in is lambda nonlocal not or pass raise return try while with yield
`);

/**
 * ECMAScript 2024 §12.7.2 `ReservedWord`, with the words reserved in strict mode code
 * (§13.1.1: `implements` … `static`, `let`, `yield`) and in modules (`await`): modules and class
 * bodies are strict, and a rename cannot tell which of its places are. TypeScript reserves the
 * same words; its contextual keywords (`type`, `as`, `async`, `of`, `declare`, …) stay names.
 */
const ECMASCRIPT_KEYWORDS = words(`
  await break case catch class const continue debugger default delete do else enum export extends
  false finally for function if implements import in instanceof interface let new null package
  private protected public return static super switch this throw true try typeof var void while
  with yield
`);

/**
 * Strict mode code may not bind `eval` or `arguments` (ECMAScript §13.1.1, §15.2.1); a
 * method's name is a property name, which may be anything.
 */
const ECMASCRIPT_FORBIDDEN = ["arguments", "eval"];

/**
 * TypeScript's predefined type names: a class, interface, enum or type alias may not take
 * them (TS2414, TS2427, TS2431, TS2457: "Class name cannot be 'string'").
 */
const TYPESCRIPT_TYPE_NAMES = words(`
  any bigint boolean never number object string symbol undefined unknown
`);

/**
 * JLS 21 §3.9 `ReservedKeyword` (`_` since Java 9, `const` and `goto` unused but reserved) and
 * the literals of §3.10.3 and §3.10.8, which are no keywords but cannot be identifiers either.
 */
const JAVA_KEYWORDS = words(`
  _ abstract assert boolean break byte case catch char class const continue default do double
  else enum extends false final finally float for goto if implements import instanceof int
  interface long native new null package private protected public return short static strictfp
  super switch synchronized this throw throws transient true try void volatile while
`);

/**
 * A method named `yield` cannot be called without a qualifier (JLS §15.12: "invalid use of a
 * restricted identifier"), and a rename writes unqualified calls.
 */
const JAVA_FORBIDDEN = ["yield"];

/** JLS §3.9: `TypeIdentifier` excludes these contextual keywords. */
const JAVA_TYPE_NAMES = ["permits", "record", "sealed", "var", "yield"];

/**
 * The Rust Reference, "Keywords": strict keywords (2018: `async`, `await`, `dyn`) and reserved
 * keywords (2018: `try`; 2024: `gen`), so that a name is valid in every edition. Weak keywords
 * (`union`, `macro_rules`, `safe`, `raw`) stay names. Raw identifiers (`r#match`) are not
 * produced: the new name must be a plain identifier.
 */
const RUST_KEYWORDS = words(`
  Self abstract as async await become box break const continue crate do dyn else enum extern
  false final fn for gen if impl in let loop macro match mod move mut override priv pub ref
  return self static struct super trait true try type typeof unsafe unsized use virtual where
  while yield
`);

/** `_` is a token of its own in Rust (Reference, "Identifiers"), never a name. */
const RUST_FORBIDDEN = ["_"];

/** The Go Specification, "Keywords": all 25. Predeclared names (`int`, `len`) may be shadowed. */
const GO_KEYWORDS = words(`
  break case chan const continue default defer else fallthrough for func go goto if import
  interface map package range return select struct switch type var
`);

/** Go Specification, "Blank identifier": `_` binds nothing, so its uses break. */
const GO_FORBIDDEN = ["_"];

/**
 * Go Specification, "Package initialization": a package-level `init` is an initialiser, which
 * nothing may refer to; a method named `init` is an ordinary method.
 */
const GO_FORBIDDEN_BUT_METHODS = ["init"];

/** C# Language Specification §6.4.4: the 77 keywords; contextual keywords (`var`, `record`) stay names. */
const CSHARP_KEYWORDS = words(`
  abstract as base bool break byte case catch char checked class const continue decimal default
  delegate do double else enum event explicit extern false finally fixed float for foreach goto
  if implicit in int interface internal is lock long namespace new null object operator out
  override params private protected public readonly ref return sbyte sealed short sizeof
  stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe
  ushort using virtual void volatile while
`);

/** Kotlin "Keywords and operators": the hard keywords; soft and modifier keywords stay names. */
const KOTLIN_KEYWORDS = words(`
  as break class continue do else false for fun if in interface is null object package return
  super this throw true try typealias typeof val var when while
`);

/**
 * The PHP manual, "List of Keywords" and its compile-time constants: they cannot name a
 * function, class or constant (since PHP 7.0 they may name a method, hence
 * `methodsTakeKeywords`).
 */
const PHP_KEYWORDS = words(`
  __CLASS__ __DIR__ __FILE__ __FUNCTION__ __LINE__ __METHOD__ __NAMESPACE__ __TRAIT__
  __halt_compiler abstract and array as break callable case catch class clone const continue
  declare default die do echo else elseif empty enddeclare endfor endforeach endif endswitch
  endwhile eval exit extends final finally fn for foreach function global goto if implements
  include include_once instanceof insteadof interface isset list match namespace new or print
  private protected public readonly require require_once return static switch throw trait try
  unset use var while xor yield
`);

/** The PHP manual, "Other reserved words": no class, interface, trait or enum may take them. */
const PHP_TYPE_NAMES = words(`
  bool false float int iterable mixed never null object parent self string true void
`);

/**
 * The Ruby documentation, "Keywords" (`defined?` is no identifier anyway). A method may be
 * named after one, but then only a call with a receiver reaches it, and a rename writes bare
 * calls too.
 */
const RUBY_KEYWORDS = words(`
  BEGIN END __ENCODING__ __FILE__ __LINE__ alias and begin break case class def do else elsif end
  ensure false for if in module next nil not or redo rescue retry return self super then true
  undef unless until when while yield
`);

/**
 * The Bash manual, "Reserved Words" (those that are identifiers): a function may be defined
 * under one, but no command line can call it.
 */
const BASH_KEYWORDS = words(`
  case coproc do done elif else esac fi for function if in select then time until while
`);

/** C11 §7.1.3 (C23 §6.4.2.1 likewise): reserved for any use, though compilers accept them. */
const C_RESERVED_FORM = {
  pattern: /^(__|_[A-Z])/,
  why: "a name C reserves for the implementation (it starts with `__` or `_` and a capital)",
};

/** C++ [lex.name]/3: reserved for the implementation for any use. */
const CPP_RESERVED_FORM = {
  pattern: /__|^_[A-Z]/,
  why: "a name C++ reserves for the implementation (it holds `__` or starts with `_` and a " +
    "capital)",
};

const ECMASCRIPT = {
  keywords: ECMASCRIPT_KEYWORDS,
  forbiddenButMethods: ECMASCRIPT_FORBIDDEN,
  methodsTakeKeywords: true,
};

const TYPESCRIPT: LanguageRules = {
  display: "TypeScript",
  ...ECMASCRIPT,
  typeNames: TYPESCRIPT_TYPE_NAMES,
};

/** The rules of each registry language (`grammars/languages.ts`) that rename supports. */
const RULES: Readonly<Record<string, LanguageRules>> = {
  bash: { display: "Bash", keywords: BASH_KEYWORDS },
  c: { display: "C", keywords: C_KEYWORDS, reservedForm: C_RESERVED_FORM },
  cpp: { display: "C++", keywords: CPP_KEYWORDS, reservedForm: CPP_RESERVED_FORM },
  csharp: {
    display: "C#",
    keywords: CSHARP_KEYWORDS,
    // C# §6.4.3: "reserved for use by the implementation; no diagnostic is required".
    reservedForm: {
      pattern: /__/,
      why: "a name C# reserves for the implementation (it holds `__`)",
    },
  },
  go: {
    display: "Go",
    keywords: GO_KEYWORDS,
    forbidden: GO_FORBIDDEN,
    forbiddenButMethods: GO_FORBIDDEN_BUT_METHODS,
  },
  java: {
    display: "Java",
    keywords: JAVA_KEYWORDS,
    forbidden: JAVA_FORBIDDEN,
    typeNames: JAVA_TYPE_NAMES,
  },
  javascript: { display: "JavaScript", ...ECMASCRIPT },
  kotlin: {
    display: "Kotlin",
    keywords: KOTLIN_KEYWORDS,
    // Kotlin reserves names made of underscores only (`_`, `__`) for future use.
    reservedForm: { pattern: /^_+$/, why: "a name Kotlin reserves (underscores only)" },
  },
  php: {
    display: "PHP",
    keywords: PHP_KEYWORDS,
    typeNames: PHP_TYPE_NAMES,
    methodsTakeKeywords: true,
  },
  python: {
    display: "Python",
    keywords: PYTHON_KEYWORDS,
    // Assigning `__debug__` is a SyntaxError (the language reference, "Built-in constants").
    forbidden: ["__debug__"],
  },
  ruby: { display: "Ruby", keywords: RUBY_KEYWORDS },
  rust: { display: "Rust", keywords: RUST_KEYWORDS, forbidden: RUST_FORBIDDEN },
  tsx: TYPESCRIPT,
  typescript: TYPESCRIPT,
};

/**
 * The keyword lists by registry language name, for the tests that hold them to the compilers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KEYWORDS } from "./reserved_words.ts";
 * assert.equal(KEYWORDS.go.length, 25);
 * ```
 */
export const KEYWORDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(RULES).map(([language, rules]) => [language, rules.keywords]),
);

/**
 * Why `name` cannot be the new name of a definition of `kind` in `language` (a registry
 * language name): a phrase such as "a keyword of C", or `undefined` when it may. A language
 * without rules here refuses nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reservedNameReason } from "./reserved_words.ts";
 * assert.equal(reservedNameReason("c", "int", "function"), "a keyword of C");
 * assert.equal(reservedNameReason("python", "match", "function"), undefined);
 * assert.equal(reservedNameReason("javascript", "delete", "method"), undefined);
 * ```
 */
export function reservedNameReason(
  language: string,
  name: string,
  kind: string,
): string | undefined {
  const rules = RULES[language];
  if (!rules) return undefined;
  const method = kind === "method";
  if (!(method && rules.methodsTakeKeywords) && rules.keywords.includes(name)) {
    return `a keyword of ${rules.display}`;
  }
  if (
    rules.forbidden?.includes(name) || (!method && rules.forbiddenButMethods?.includes(name))
  ) {
    return `a name ${rules.display} forbids a ${kind} to take`;
  }
  if (TYPE_KINDS.has(kind) && rules.typeNames?.includes(name)) {
    return `a name no ${kind} of ${rules.display} may take`;
  }
  if (rules.reservedForm?.pattern.test(name)) return rules.reservedForm.why;
  return undefined;
}
