/**
 * `dml bench SUITE --only NAME`: a suite runs only the cases whose label
 * contains NAME, compared without regard to case (e2e and fusion).
 */

/** Whether `label` is a case `only` selects (every case when `only` is undefined). */
export function selectsCase(only: string | undefined, label: string): boolean {
  return only === undefined || label.toLowerCase().includes(only.toLowerCase());
}

/** The message when `only` selects none of `labels`. */
export function noCaseMessage(suite: string, only: string, labels: readonly string[]): string {
  return `dml bench ${suite}: --only '${only}' matches no case (cases: ${labels.map((l) => `'${l}'`).join(", ")})`;
}
