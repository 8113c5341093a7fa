/**
 * Index attributes of the relational form (SPORES): each has a dimension.
 * Fresh attributes are named by what they stand for (e.g. "the inner index
 * of the product in class 12"), so translating the same product twice gives
 * the same attribute and the two relational terms are one e-node.
 */
export class AttributeTable {
  private readonly dims: number[] = [];
  private readonly byKey = new Map<string, number>();

  /** The attribute for `key`, created with dimension `dim` on first use. */
  fresh(key: string, dim: number): number {
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const id = this.dims.length;
    this.dims.push(dim);
    this.byKey.set(key, id);
    return id;
  }

  /** The dimension of an attribute (1 for `_`, id -1). */
  dim(id: number): number {
    return id < 0 ? 1 : this.dims[id]!;
  }

  get size(): number {
    return this.dims.length;
  }
}
