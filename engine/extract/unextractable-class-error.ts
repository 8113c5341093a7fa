/**
 * A root class has no finite, acyclic member, so no plan can be extracted
 * for it (e.g. every member needs a size that is unknown). Expected on some
 * statements: callers that optimize many statements skip the one that
 * throws it; any other error is a bug and is not caught.
 */
export class UnextractableClassError extends Error {
  constructor(readonly cls: string) {
    super(`class ${cls} cannot be extracted (no finite, acyclic member)`);
  }
}
