/**
 * Block DAGs kept across analyses of one document, so that after an edit
 * only the edited blocks (and those whose live-in types changed) are built
 * again. A DAG is stored under the block's text (trailing spaces of its
 * lines left out: they place no token), its start column,
 * the types of the variables it reads, the writes of its enclosing loops
 * among them, and what the whole program contributes (user functions,
 * their signatures, builtin constants). A block that only moved by lines
 * gets its DAG back with every range moved (stored moved, so the rounds of
 * a loop find it in place). Each lookup returns its own DAG object, so what
 * callers set on it (`liveOut`, `programLiveOut`) never reaches the cache; its nodes, maps and
 * lists are shared and nobody changes them after the build.
 *
 * Entries no analysis used in the last two are dropped at `sweep()`.
 */
import { type Diagnostic, shiftRange, withoutTrailingSpaces } from "../syntax";
import type { DagContext } from "./dag-context";
import type { BlockDag } from "./dag-types";
import type { BasicBlock } from "./statement-block";

interface Entry {
  dag: BlockDag;
  line: number;
  generation: number;
}

export class BlockDagCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  hits = 0;
  misses = 0;

  /** The block's DAG from the cache, else `build()`'s, stored; with the key it is stored under. */
  dagOf(block: BasicBlock, blockText: string, context: DagContext, contextKey: string, build: () => BlockDag): { dag: BlockDag; key: string } {
    const key = blockKey(block, blockText, context, contextKey);
    const line = block.range.start.line;
    const entry = this.entries.get(key);
    if (entry) {
      this.hits++;
      entry.generation = this.generation;
      if (entry.line !== line) {
        entry.dag = moved(entry.dag, line - entry.line);
        entry.line = line;
      }
      return { dag: { ...entry.dag }, key };
    }
    this.misses++;
    const dag = build();
    this.entries.set(key, { dag, line, generation: this.generation });
    return { dag: { ...dag }, key };
  }

  /** Ends one analysis: forgets what neither it nor the one before used. */
  sweep(): void {
    for (const [key, entry] of this.entries) if (entry.generation < this.generation - 1) this.entries.delete(key);
    this.generation++;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** What the whole program contributes to every block's DAG. */
export function programContextKey(context: DagContext): string {
  const signatures = [...context.signatures.values()].map((s) => JSON.stringify(s));
  const builtinScripts = [...(context.builtinScripts ?? [])].map((entry) => JSON.stringify(entry));
  return JSON.stringify([[...context.functions.names].sort(), signatures.sort(), [...context.constants].sort(), builtinScripts.sort()]);
}

function blockKey(block: BasicBlock, blockText: string, context: DagContext, contextKey: string): string {
  const types = block.reads.map((name) => {
    const type = context.variableTypes?.get(name);
    return type ? `${name}:${type.dataType}/${type.valueType}` : `${name}:?`;
  });
  const loops = (context.loopWrites ?? []).map((writes) => block.reads.filter((name) => writes.has(name)).join(","));
  return [contextKey, block.range.start.character, types.join(";"), loops.join("|"), withoutTrailingSpaces(blockText)].join("\n");
}

function moved(dag: BlockDag, lines: number): BlockDag {
  const copy: BlockDag = {
    nodes: dag.nodes.map((node) => ({ ...node, range: shiftRange(node.range, lines) })),
    inputs: new Map(dag.inputs),
    outputs: new Map(dag.outputs),
    sinks: dag.sinks.map((sink) => ({ ...sink, range: shiftRange(sink.range, lines) })),
  };
  if (dag.diagnostics) copy.diagnostics = dag.diagnostics.map((d): Diagnostic => ({ ...d, range: shiftRange(d.range, lines) }));
  return copy;
}
