/**
 * The few DOM members turndown reads, on plain objects. turndown asks every node for its textContent (blank
 * test, flanking whitespace) and blank nodes for getElementsByTagName; on a real DOM each call walks the
 * subtree again, which is where most of its time goes on a large page. Here textContent is kept once
 * computed and dropped again whenever a text below changes or a child is removed (turndown's whitespace
 * pass does both, before the conversion reads anything).
 */

export type LiteNode = LiteElement | LiteText;

/** Shared by the many elements without attributes. */
const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

abstract class LiteBase {
  parentNode: LiteElement | null = null;
  previousSibling: LiteNode | null = null;
  nextSibling: LiteNode | null = null;
  // The flags turndown's walk stores on the nodes it visits, declared here so every node keeps one shape.
  isBlock = false;
  isCode = false;
  isBlank = false;
  flankingWhitespace: { leading: string; trailing: string } | null = null;
}

const NO_CHILDREN: readonly LiteNode[] = Object.freeze([]);

// Constant members are getters, not fields: a large page has a hundred thousand nodes, and every field is
// memory the garbage collector copies while the tree is alive.
export class LiteText extends LiteBase {
  get nodeType(): 3 {
    return 3;
  }
  get nodeName(): "#text" {
    return "#text";
  }
  get firstChild(): null {
    return null;
  }
  get lastChild(): null {
    return null;
  }
  get childNodes(): readonly LiteNode[] {
    return NO_CHILDREN;
  }
  #data: string;

  constructor(data: string) {
    super();
    this.#data = data;
  }

  get data(): string {
    return this.#data;
  }

  set data(value: string) {
    this.#data = value;
    this.parentNode?.forget();
  }

  get nodeValue(): string {
    return this.#data;
  }

  get textContent(): string {
    return this.#data;
  }
}

export class LiteElement extends LiteBase {
  get nodeType(): 1 {
    return 1;
  }
  readonly nodeName: string;
  /** Lower-case tag name, as the HTML parser matches it. */
  readonly localName: string;
  readonly attributes: ReadonlyMap<string, string>;
  firstChild: LiteNode | null = null;
  lastChild: LiteNode | null = null;
  // Children live in the sibling links (removal is O(1): turndown drops many blank texts from long lists);
  // the array turndown iterates is built when asked for and kept until the next change.
  #children: LiteNode[] | undefined;
  #elements: LiteElement[] | undefined;
  #text: string | undefined;

  constructor(localName: string, attributes: ReadonlyMap<string, string> = NO_ATTRIBUTES, nodeName = localName.toUpperCase()) {
    super();
    this.localName = localName;
    this.nodeName = nodeName;
    this.attributes = attributes;
  }

  get childNodes(): readonly LiteNode[] {
    if (!this.#children) {
      const list: LiteNode[] = [];
      for (let node = this.firstChild; node; node = node.nextSibling) list.push(node);
      this.#children = list;
    }
    return this.#children;
  }

  /** Kept like childNodes: turndown asks a list for its children once per item. */
  get children(): readonly LiteElement[] {
    this.#elements ??= this.childNodes.filter((node): node is LiteElement => node.nodeType === 1);
    return this.#elements;
  }

  get lastElementChild(): LiteElement | null {
    for (let node = this.lastChild; node; node = node.previousSibling) if (node.nodeType === 1) return node;
    return null;
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name.toLowerCase()) ?? null;
  }

  get textContent(): string {
    if (this.#text === undefined) {
      let text = "";
      for (let node = this.firstChild; node; node = node.nextSibling) text += node.textContent;
      this.#text = text;
    }
    return this.#text;
  }

  /** Drops the kept textContent here and above, after a change below. */
  forget(): void {
    for (let node: LiteElement | null = this; node && node.#text !== undefined; node = node.parentNode) node.#text = undefined;
  }

  appendChild(node: LiteNode): void {
    const last = this.lastChild;
    node.parentNode = this;
    node.previousSibling = last;
    node.nextSibling = null;
    if (last) last.nextSibling = node;
    else this.firstChild = node;
    this.lastChild = node;
    this.#children = this.#elements = undefined;
    this.forget();
  }

  removeChild(node: LiteNode): LiteNode {
    if (node.parentNode !== this) throw new Error("removeChild: not a child of this element");
    if (node.previousSibling) node.previousSibling.nextSibling = node.nextSibling;
    else this.firstChild = node.nextSibling;
    if (node.nextSibling) node.nextSibling.previousSibling = node.previousSibling;
    else this.lastChild = node.previousSibling;
    node.parentNode = node.previousSibling = node.nextSibling = null;
    this.#children = this.#elements = undefined;
    this.forget();
    return node;
  }

  getElementsByTagName(name: string): LiteElement[] {
    const wanted = name.toUpperCase();
    const found: LiteElement[] = [];
    const visit = (element: LiteElement) => {
      for (let child = element.firstChild; child; child = child.nextSibling) {
        if (child.nodeType !== 1) continue;
        if (child.nodeName === wanted) found.push(child);
        visit(child);
      }
    };
    visit(this);
    return found;
  }

  /** turndown copies the node it is given; the trees here are built for one conversion, so no copy is needed. */
  cloneNode(): this {
    return this;
  }
}

/** A lite copy of a parsed DOM subtree (the browser's DOMParser output), comments and the like left out as turndown would. */
export function fromDom(node: Element): LiteElement {
  const attributes = new Map<string, string>();
  for (const attribute of Array.from(node.attributes)) attributes.set(attribute.name, attribute.value);
  const copy = new LiteElement(node.localName, attributes, node.nodeName);
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) copy.appendChild(fromDom(child as Element));
    else if (child.nodeType === 3 || child.nodeType === 4) copy.appendChild(new LiteText((child as CharacterData).data));
  }
  return copy;
}

const SPACE = /\s/;

/** Whether textContent is whitespace only (JavaScript's \s), without building it. */
export function whitespaceOnly(node: LiteNode): boolean {
  if (node.nodeType === 3) return !/\S/.test(node.data);
  for (let child = node.firstChild; child; child = child.nextSibling) if (!whitespaceOnly(child)) return false;
  return true;
}

/** The whitespace textContent starts with (or ends with, `fromEnd`), all of it when there is nothing else, without building textContent. */
export function edgeSpace(node: LiteNode, fromEnd: boolean): string {
  const found = { text: "" };
  collectEdge(node, fromEnd, found);
  return found.text;
}

/** Adds the node's edge whitespace to `found`; true once a non-space character ends the search. */
function collectEdge(node: LiteNode, fromEnd: boolean, found: { text: string }): boolean {
  if (node.nodeType === 3) {
    const data = node.data;
    if (fromEnd) {
      let start = data.length;
      while (start > 0 && SPACE.test(data[start - 1]!)) start--;
      found.text = data.slice(start) + found.text;
      return start > 0;
    }
    let end = 0;
    while (end < data.length && SPACE.test(data[end]!)) end++;
    found.text += data.slice(0, end);
    return end < data.length;
  }
  if (fromEnd) {
    for (let child = node.lastChild; child; child = child.previousSibling) if (collectEdge(child, fromEnd, found)) return true;
  } else {
    for (let child = node.firstChild; child; child = child.nextSibling) if (collectEdge(child, fromEnd, found)) return true;
  }
  return false;
}
