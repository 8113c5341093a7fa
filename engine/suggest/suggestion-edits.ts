/**
 * A suggestion as text edits (what a quick fix applies): the right-hand
 * side replaced, and its new temporaries assigned on lines of their own
 * before the statement, indented like it.
 */
import type { TextEdit } from "../syntax";
import type { Suggestion } from "./optimize-block";

export function suggestionEdits(s: Suggestion, sourceText: string): TextEdit[] {
  const edits: TextEdit[] = [{ range: s.range, newText: s.rewritten }];
  const temporaries = s.temporaries ?? [];
  if (temporaries.length > 0) {
    const { line, character } = temporaries[0]!.insertAt;
    const indent = (sourceText.split("\n")[line] ?? "").slice(0, character).match(/^\s*/)?.[0] ?? "";
    const at = { line, character: 0 };
    edits.push({ range: { start: at, end: at }, newText: temporaries.map((t) => `${indent}${t.name} = ${t.text}\n`).join("") });
  }
  return edits;
}
