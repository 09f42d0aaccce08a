/**
 * The variables of a block or function of an execute program: a chain of maps, never a host object.
 * Generic over the value type so this file needs nothing of the values it holds (no import circle).
 */
export interface Binding<V> {
  value: V;
  mutable: boolean;
}

export class Scope<V> {
  private readonly vars = new Map<string, Binding<V>>();

  constructor(
    readonly parent: Scope<V> | undefined,
    /** A function's (or the program's) own scope: where `var` lands. */
    readonly isFunction: boolean,
  ) {}

  declare(name: string, value: V, mutable: boolean): void {
    this.vars.set(name, { value, mutable });
  }

  /** The scope a `var` belongs to. */
  functionScope(): Scope<V> {
    let scope: Scope<V> = this;
    while (!scope.isFunction && scope.parent) scope = scope.parent;
    return scope;
  }

  /** The binding of `name` here or in an enclosing scope. */
  find(name: string): Binding<V> | undefined {
    for (let scope: Scope<V> | undefined = this; scope; scope = scope.parent) {
      const binding = scope.vars.get(name);
      if (binding) return binding;
    }
    return undefined;
  }

  /** A fresh scope with the same bindings: each turn of a `for (let ...)` loop gets its own. */
  copy(): Scope<V> {
    const copy = new Scope<V>(this.parent, this.isFunction);
    for (const [name, binding] of this.vars) copy.vars.set(name, { ...binding });
    return copy;
  }
}
