/** Code-unit comparison: locale-independent, so output is byte-stable across machines. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The cycles of a directed graph: strongly connected components with more than one member, plus
 * self-loops (iterative Tarjan, so a 100k-entry chain cannot overflow the stack). Members and
 * cycles are sorted, so the result does not depend on the order of the input.
 */
export function cycleComponents(edges: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const root of [...edges.keys()].sort(cmp)) {
    if (index.has(root)) continue;
    const work: { node: string; next: string[]; i: number }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: [...(edges.get(node) ?? [])], i: 0 });
    };
    enter(root);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.i < top.next.length) {
        const w = top.next[top.i++];
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== top.node);
      if (component.length > 1 || top.next.includes(top.node)) out.push(component.sort(cmp));
    }
  }
  return out.sort((a, b) => cmp(a[0], b[0]));
}
