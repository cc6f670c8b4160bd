/**
 * Whether two elements are the same tree: node for node the same node types, the same tag
 * names with the same attributes in the same order, the same text and comments. What is read
 * from such a tree alone is then the same for both. Stops at the first difference; iterative,
 * since real pages nest deeper than a recursive walk should go. Elements only: linkedom gives
 * a doctype no next sibling, so a walk from a document would stop at its doctype.
 */
export const sameTree = (left: Element, right: Element): boolean => {
  if (!sameNode(left, right)) return false;
  const stack: Array<[Node | null, Node | null]> = [[left.firstChild, right.firstChild]];
  while (stack.length > 0) {
    const pair = stack.pop();
    if (!pair) break;
    let [a, b] = pair;
    while (a !== null && b !== null) {
      if (!sameNode(a, b)) return false;
      const [childA, childB] = [a.firstChild, b.firstChild];
      if (childA !== null || childB !== null) stack.push([childA, childB]);
      a = a.nextSibling;
      b = b.nextSibling;
    }
    if (a !== null || b !== null) return false;
  }
  return true;
};

const sameNode = (a: Node, b: Node): boolean => {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType === 1) return sameAttributes(a as Element, b as Element);
  return a.nodeValue === b.nodeValue;
};

const sameAttributes = (a: Element, b: Element): boolean => {
  const [left, right] = [a.attributes, b.attributes];
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) {
    const [x, y] = [left[index], right[index]];
    if (x?.name !== y?.name || x?.value !== y?.value) return false;
  }
  return true;
};
