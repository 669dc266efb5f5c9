/**
 * C and C++ fields of structs, unions and classes, which an operation refuses to name: the
 * symbol index holds no fact of a field, and `p->name` or `x.name` belongs to whichever type `p`
 * or `x` has, which only the compiler knows (a field of the same name in another struct, one of
 * a system header among them). A refusal that says so, with the declarations, beats "not found".
 *
 * @module
 */
import { basename } from "../../core/path_syntax.ts";
import type { Node } from "web-tree-sitter";
import { createParser } from "../../grammars/loader.ts";
import { languageForFile } from "../../grammars/languages.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { decodeText } from "../../core/utf8.ts";
import { cFilesNaming } from "./macros.ts";
import type { FactView } from "./view.ts";

/** A field declaration spelled as the name. */
export interface FieldPlace {
  /** Root-relative file. */
  path: string;
  /** 1-based line of the field's name. */
  line: number;
  /** The struct, union or class declaring it (`struct point`, `union <anonymous>`). */
  owner: string;
}

const OWNERS = ["struct_specifier", "union_specifier", "class_specifier"];

/** `struct point` for the struct, union or class whose body holds `node`. */
function ownerOf(node: Node): string {
  let owner = node.parent;
  while (owner && !OWNERS.includes(owner.type)) owner = owner.parent;
  if (!owner) return "<unknown>";
  const keyword = owner.type.replace("_specifier", "");
  return `${keyword} ${owner.childForFieldName("name")?.text ?? "<anonymous>"}`;
}

/**
 * Whether `node` (a `field_identifier`) is the name a field declaration declares: not a member
 * function's (C++ `int area() const;`), nor one read in an initialiser.
 */
function isDeclared(node: Node): boolean {
  if (node.parent?.type === "function_declarator") return false;
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === "field_declaration") return true;
    if (up.type === "field_declaration_list" || up.type.endsWith("_expression")) return false;
  }
  return false;
}

/** The field declarations spelled `name` in one C or C++ text. */
async function fieldsIn(path: string, language: string, text: string, name: string) {
  const parser = await createParser(language);
  try {
    const tree = parser.parse(text);
    if (!tree) return [];
    try {
      return tree.rootNode.descendantsOfType("field_identifier")
        .filter((node): node is Node => node !== null && node.text === name && isDeclared(node))
        .map((node): FieldPlace => ({
          path,
          line: node.startPosition.row + 1,
          owner: ownerOf(node),
        }));
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** The C and C++ field declarations spelled `name` in the files of the index that hold it. */
export async function fieldDeclarations(view: FactView, name: string): Promise<FieldPlace[]> {
  const found: FieldPlace[] = [];
  for (const path of await cFilesNaming(view, name)) {
    const language = languageForFile(basename(path))?.name;
    const text = decodeText(await view.bytesOf(path));
    if (language) found.push(...await fieldsIn(path, language, text, name));
  }
  return found;
}

/**
 * `SPL-REF-005` when the name a step gives (its last component: `point.x`, `point::x`) is
 * declared as a C or C++ field and nothing in the index has it; `undefined` otherwise.
 */
export async function fieldRefusal(
  view: FactView,
  symbol: string,
): Promise<ToolError | undefined> {
  const name = symbol.split(/\.|::|->/).at(-1) ?? symbol;
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  const fields = await fieldDeclarations(view, name);
  if (fields.length === 0) return undefined;
  const places = fields.map((field) => `${field.owner} ${field.path}:${field.line}`);
  return new ToolError(
    "SPL-REF-005",
    `${name} is a field (${places[0]}${places.length > 1 ? ", …" : ""}); llm-refactor does ` +
      "not rename, patch or delete C and C++ fields; nothing was changed",
    { note: `field declarations:\n${places.join("\n")}` },
  );
}
