/**
 * An insertion-ordered set of variable names. Block read and write sets are
 * reported in first-occurrence order, so that printed forms and tests are
 * stable and follow the order a reader meets the names in the source.
 */
export class NameList {
  private readonly seen = new Set<string>();
  private readonly list: string[] = [];

  constructor(initial: Iterable<string> = []) {
    this.addAll(initial);
  }

  add(name: string): void {
    if (this.seen.has(name)) return;
    this.seen.add(name);
    this.list.push(name);
  }

  addAll(names: Iterable<string>): void {
    for (const name of names) this.add(name);
  }

  has(name: string): boolean {
    return this.seen.has(name);
  }

  /** A fresh array, in first-occurrence order. */
  toArray(): string[] {
    return [...this.list];
  }
}
