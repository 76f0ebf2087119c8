/**
 * Publisher's access gates, `#(authorize) "<expression over givens>"`: a
 * boolean expression over Malloy givens (`$ROLE`) and literals, parsed and
 * evaluated here rather than by a database, so the same decision is made by
 * the query path, the models API and retrieval.
 *
 * The grammar is the one Publisher's gates use: `or`, `and`, `not`,
 * parentheses, comparisons (`=`, `!=`, `<`, `<=`, `>`, `>=`) between a
 * given and a literal (or two of either), `$G in ['a', 'b']`, `$G is null`,
 * `$G is not null`, and the literals `true`, `false`, `null`, numbers and
 * single- or double-quoted strings. Anything else (a field of the source, a
 * function call) is refused at publish: a gate says who may query a source,
 * not which rows (rows are restricted with the source's `where:`).
 *
 * Evaluation follows SQL's three-valued logic (a comparison with an unset
 * given is unknown) and an unknown result denies: a caller without a value
 * is refused, never let through.
 * @module
 */

/** A literal or a given's value. */
type Value = string | number | boolean | null;

type Node =
  | { kind: "or" | "and"; left: Node; right: Node }
  | { kind: "not"; operand: Node }
  | { kind: "compare"; op: string; left: Operand; right: Operand }
  | { kind: "in"; operand: Operand; list: Value[]; negated: boolean }
  | { kind: "null"; operand: Operand; negated: boolean }
  | { kind: "value"; operand: Operand };

type Operand = { given: string } | { literal: Value };

/** A parsed gate: the givens it reads and its tree. */
export interface Gate {
  text: string;
  givens: string[];
  tree: Node;
}

/** An expression outside the grammar of gates. */
class GateSyntaxError extends Error {
  override name = "GateSyntaxError";
}

const TOKEN = /\s*(?:(\$[A-Za-z_][A-Za-z0-9_]*)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?)|(<=|>=|!=|<>|=|<|>|\(|\)|\[|\]|,)|([A-Za-z_]+))/y;

interface Token {
  type: "given" | "string" | "number" | "op" | "word";
  text: string;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) throw new GateSyntaxError(`unexpected '${text.slice(at).trim().slice(0, 20)}'`);
    at = TOKEN.lastIndex;
    if (m[1]) out.push({ type: "given", text: m[1].slice(1) });
    else if (m[2]) out.push({ type: "string", text: m[2].slice(1, -1).replace(/\\(.)/g, "$1") });
    else if (m[3]) out.push({ type: "number", text: m[3] });
    else if (m[4]) out.push({ type: "op", text: m[4] });
    else out.push({ type: "word", text: m[5]!.toLowerCase() });
  }
  return out;
}

/** Parses a gate expression; throws {@link GateSyntaxError} naming what is outside the grammar. */
export function parseGate(text: string): Gate {
  const tokens = tokenize(text);
  let i = 0;
  const givens = new Set<string>();
  const peek = () => tokens[i];
  const isWord = (w: string) => peek()?.type === "word" && peek()!.text === w;
  const isOp = (o: string) => peek()?.type === "op" && peek()!.text === o;
  const expect = (o: string) => {
    if (!isOp(o)) throw new GateSyntaxError(`expected '${o}'${peek() ? ` before '${peek()!.text}'` : " at the end"}`);
    i++;
  };
  const literal = (): Value => {
    const t = tokens[i++];
    if (!t) throw new GateSyntaxError("expected a value at the end");
    if (t.type === "string") return t.text;
    if (t.type === "number") return Number(t.text);
    if (t.type === "word" && (t.text === "true" || t.text === "false")) return t.text === "true";
    if (t.type === "word" && t.text === "null") return null;
    throw new GateSyntaxError(`'${t.text}' is not a literal; a gate compares givens ($NAME) with literals`);
  };
  const operand = (): Operand => {
    const t = peek();
    if (t?.type === "given") {
      i++;
      givens.add(t.text);
      return { given: t.text };
    }
    if (t?.type === "word" && !["true", "false", "null"].includes(t.text)) {
      throw new GateSyntaxError(`'${t.text}' is not a given or a literal; a gate reads givens ($NAME) only, not the source's fields (restrict rows with the source's where:)`);
    }
    return { literal: literal() };
  };
  const primary = (): Node => {
    if (isOp("(")) {
      i++;
      const inner = or();
      expect(")");
      return inner;
    }
    if (isWord("not")) {
      i++;
      return { kind: "not", operand: primary() };
    }
    const left = operand();
    const t = peek();
    if (t?.type === "op" && ["=", "!=", "<>", "<", "<=", ">", ">="].includes(t.text)) {
      i++;
      return { kind: "compare", op: t.text === "<>" ? "!=" : t.text, left, right: operand() };
    }
    if (isWord("is")) {
      i++;
      const negated = isWord("not");
      if (negated) i++;
      if (!isWord("null")) throw new GateSyntaxError("expected 'null' after 'is'");
      i++;
      return { kind: "null", operand: left, negated };
    }
    const negated = isWord("not") && tokens[i + 1]?.type === "word" && tokens[i + 1]!.text === "in";
    if (negated) i++;
    if (isWord("in")) {
      i++;
      expect("[");
      const list: Value[] = [];
      while (!isOp("]")) {
        list.push(literal());
        if (isOp(",")) i++;
        else if (!isOp("]")) throw new GateSyntaxError("expected ',' or ']' in a list");
      }
      i++;
      return { kind: "in", operand: left, list, negated };
    }
    return { kind: "value", operand: left };
  };
  const and = (): Node => {
    let left = primary();
    while (isWord("and")) {
      i++;
      left = { kind: "and", left, right: primary() };
    }
    return left;
  };
  function or(): Node {
    let left = and();
    while (isWord("or")) {
      i++;
      left = { kind: "or", left, right: and() };
    }
    return left;
  }
  if (tokens.length === 0) throw new GateSyntaxError("the expression is empty");
  const tree = or();
  if (i < tokens.length) throw new GateSyntaxError(`unexpected '${tokens[i]!.text}'`);
  return { text, givens: [...givens], tree };
}

/** Three-valued: true, false or unknown (null). */
type Truth = boolean | null;

function valueOf(operand: Operand, values: ReadonlyMap<string, unknown>): Value {
  if ("literal" in operand) return operand.literal;
  const v = values.get(operand.given);
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : null;
}

function compare(op: string, a: Value, b: Value): Truth {
  if (a === null || b === null) return null;
  if (typeof a !== typeof b) return op === "!=";
  switch (op) {
    case "=": return a === b;
    case "!=": return a !== b;
    case "<": return a < b;
    case "<=": return a <= b;
    case ">": return a > b;
    default: return a >= b;
  }
}

function truth(node: Node, values: ReadonlyMap<string, unknown>): Truth {
  switch (node.kind) {
    case "or": {
      const l = truth(node.left, values);
      const r = truth(node.right, values);
      return l === true || r === true ? true : l === null || r === null ? null : false;
    }
    case "and": {
      const l = truth(node.left, values);
      const r = truth(node.right, values);
      return l === false || r === false ? false : l === null || r === null ? null : true;
    }
    case "not": {
      const t = truth(node.operand, values);
      return t === null ? null : !t;
    }
    case "compare":
      return compare(node.op, valueOf(node.left, values), valueOf(node.right, values));
    case "in": {
      const v = node.operand;
      if ("given" in v && Array.isArray(values.get(v.given))) {
        // a list-valued given (string_list attribute) is in the list when one of its values is
        const list = values.get(v.given) as unknown[];
        const hit = list.some((x) => node.list.includes(x as Value));
        return node.negated ? !hit : hit;
      }
      const x = valueOf(v, values);
      if (x === null) return null;
      const hit = node.list.includes(x);
      return node.negated ? !hit : hit;
    }
    case "null": {
      const isNull = valueOf(node.operand, values) === null;
      return node.negated ? !isNull : isNull;
    }
    case "value": {
      const x = valueOf(node.operand, values);
      return typeof x === "boolean" ? x : null;
    }
  }
}

/** Whether a gate holds for these givens' values (an unknown result is false). */
export function gateHolds(gate: Gate, values: ReadonlyMap<string, unknown>): boolean {
  return truth(gate.tree, values) === true;
}

const parsed = new Map<string, Gate>();

/** {@link parseGate}, once per distinct text. */
export function cachedGate(text: string): Gate {
  let gate = parsed.get(text);
  if (!gate) {
    gate = parseGate(text);
    if (parsed.size >= 10_000) parsed.clear();
    parsed.set(text, gate);
  }
  return gate;
}
