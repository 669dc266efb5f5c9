// A tiny tokenizer and parser, used as the README's example tree.
export interface Token {
  kind: "number" | "operator";
  text: string;
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  for (const match of source.matchAll(/\d+|[+*()-]/g)) {
    tokens.push({ kind: /\d/.test(match[0]) ? "number" : "operator", text: match[0] });
  }
  return tokens;
}

export function parseExpression(source: string): number {
  // TODO: operator precedence
  return tokenize(source)
    .filter((token) => token.kind === "number")
    .reduce((sum, token) => sum + Number(token.text), 0);
}
