/**
 * The pairs of the simplification examples (examples/simplifications/*.dml):
 * each script says in header comment lines which of its variables the
 * optimizer proves equal (`# prove: A B`) and which are unequal twins that
 * it must never prove (`# unequal: C D`).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type PairKind = "prove" | "unequal";

export interface SimplificationPair {
  kind: PairKind;
  a: string;
  b: string;
  /** 1-based line of the header comment. */
  line: number;
}

export interface SimplificationExample {
  /** Path relative to the package root, with forward slashes. */
  file: string;
  path: string;
  text: string;
  pairs: SimplificationPair[];
}

export const SIMPLIFICATIONS_FOLDER = path.join("examples", "simplifications");

const HEADER = /^#\s*(prove|unequal):\s*([A-Za-z_][\w.]*)\s+([A-Za-z_][\w.]*)\s*$/;

/** The `# prove:` and `# unequal:` lines of a script; a malformed one is an error with its line. */
export function simplificationPairs(text: string, file: string): SimplificationPair[] {
  const pairs: SimplificationPair[] = [];
  text.split("\n").forEach((raw, k) => {
    const line = raw.trim();
    if (!/^#\s*(prove|unequal):/.test(line)) return;
    const match = HEADER.exec(line);
    if (!match) throw new Error(`${file}:${k + 1}: expected '# prove: A B' or '# unequal: A B', got '${line}'`);
    pairs.push({ kind: match[1] as PairKind, a: match[2]!, b: match[3]!, line: k + 1 });
  });
  return pairs;
}

/** Every examples/simplifications/*.dml under `root` (sorted by name), with its pairs; `prefix` narrows to one family. */
export function simplificationExamples(root: string, prefix = ""): SimplificationExample[] {
  const folder = path.join(root, SIMPLIFICATIONS_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".dml") && name.startsWith(prefix))
    .sort()
    .map((name) => {
      const file = `${SIMPLIFICATIONS_FOLDER.split(path.sep).join("/")}/${name}`;
      const full = path.join(folder, name);
      const text = readFileSync(full, "utf8");
      return { file, path: full, text, pairs: simplificationPairs(text, file) };
    });
}
