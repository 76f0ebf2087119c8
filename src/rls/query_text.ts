/**
 * What query text says about source arguments, read with Malloy's own parser
 * (its parse tree, never a regular expression): the names of the arguments
 * it passes to sources, e.g. `orders(region_param is "EU")` names
 * `region_param`. A bare positional argument (`orders(region_param)`) names
 * the identifier it passes.
 * @module
 */
import { Malloy } from "@malloydata/malloy";

interface TreeNode {
  constructor: { name: string };
  children?: TreeNode[];
  text?: string;
  argumentId?: () => TreeNode | undefined;
  fieldExpr?: () => TreeNode;
}

/**
 * Names of the source arguments written in `text`, read as the runner reads
 * it: as a document when it starts with a statement, else as the body of a
 * `run:` statement.
 */
export function sourceArgumentNames(text: string): string[] {
  const body = text.replace(/^(\s|--[^\n]*\n|\/\/[^\n]*\n)*/, "");
  return namesIn(/^(run|query|source|import|#)/.test(body) ? text : `run: ${text}`);
}

function namesIn(text: string): string[] {
  let root: TreeNode | undefined;
  try {
    const parse = Malloy.parse({ source: text, url: new URL("internal://query-text") });
    const translator = parse._translator as unknown as { parseStep: { step(t: unknown): { parse?: { root: TreeNode } } } };
    root = translator.parseStep.step(translator).parse?.root;
  } catch {
    return [];
  }
  const names: string[] = [];
  const walk = (node: TreeNode | undefined): void => {
    if (!node) return;
    if (node.constructor.name === "SourceArgumentContext") {
      const id = node.argumentId?.();
      const name = id ? id.text : node.fieldExpr?.().text;
      if (name) names.push(name.replace(/^`|`$/g, ""));
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(root);
  return names;
}
