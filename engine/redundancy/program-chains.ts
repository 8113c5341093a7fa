/**
 * The analysed program as ReMac's search sees it: per basic block, the
 * matrix expressions of its statements as sums of multiplication chains
 * (expression-sums.ts), with each matrix a versioned atom (a variable
 * assigned in the block gets a new key at each assignment, so equal keys
 * are equal values), its sizes from the analysis, how many enclosing loops
 * leave it unchanged, and whether it is provably symmetric (symmetry.ts).
 * Loops carry their expected iteration counts (program/loop-iterations.ts) and
 * every block how often it runs per run of the script.
 */
import { type Expression, type ForStatement, type Identifier, type IfStatement, type Program, type Range, type Statement, type WhileStatement, textInRange } from "../syntax";
import { type BlockDagInfo, type SimpleStatement, type StatementBlock, childExpressions, statementExpressions, forEachStatement } from "../program";
import type { ProgramAnalysis } from "../analysis";
import type { NodeStats } from "../stats/sizes/node-stats";
import type { Atom, MatrixSize, Product, Sum } from "./chain-terms";
import { expressionSums, type ExpressionSums, type SumContext, type ValueKind } from "./expression-sums";
import { expressionKind } from "./expression-kinds";
import { loopIterations, type LoopIterations } from "../program";
import { symmetricVariables } from "./symmetry";
import { atomSketch } from "./atom-sketch";
import type { MncSketch } from "../stats/estimators";

export interface ChainLoop {
  id: number;
  statement: ForStatement | WhileStatement;
  /** Variables the loop may assign (its body's writes and a for loop's variable). */
  writes: ReadonlySet<string>;
  iterations: LoopIterations;
  /** How often the loop statement itself is reached per run of the script. */
  entries: number;
}

export interface Region {
  id: number;
  block: BlockChains;
  statement: SimpleStatement;
  statementIndex: number;
  sums: ExpressionSums;
}

export interface Chain {
  id: number;
  region: Region;
  productIndex: number;
  product: Product;
  /**
   * Per factor, the value it reads across the blocks of its scope: equal
   * strings are equal values wherever they are read (a variable at its
   * block's entry gets the value that reaches that entry; a version
   * assigned in the block keeps its atom key).
   */
  values: string[];
}

/** One control-flow statement around a block, and which of its bodies holds the block. */
export interface NestStep {
  statement: IfStatement | ForStatement | WhileStatement;
  branch: "then" | "else" | "body";
  /** The value of each variable just before the statement (variables absent: their initial value, see `valueBefore`). */
  values: ReadonlyMap<string, string>;
  /** Runs of the statement per run of the script. */
  runs: number;
}

export interface BlockChains {
  index: number;
  info: BlockDagInfo;
  /** Enclosing loops, innermost first. */
  loops: ChainLoop[];
  /** Runs of the block per run of the script (product of the loops' iterations). */
  runs: number;
  regions: Region[];
  chains: Chain[];
  /** The function the block is in ("" for the main program). */
  scope: string;
  /** The control-flow statements around the block within its scope, outermost first. */
  nest: NestStep[];
}

/** The value of `name` just before a nest step's statement, in the scope of `block`. */
export function valueBefore(step: NestStep, block: BlockChains, name: string): string {
  return step.values.get(name) ?? initialValue(block.scope, name);
}

function initialValue(scope: string, name: string): string {
  return `${scope === "" ? "" : `${scope}::`}${name}`;
}

export interface ProgramChains {
  blocks: BlockChains[];
  regions: Region[];
  chains: Chain[];
  /** The source expression each factor leaf comes from. */
  leaves: Map<number, Expression>;
  /** Every identifier the script uses (fresh names avoid them). */
  names: Set<string>;
  /** Symmetric variables per scope ("" is the main program). */
  symmetric: Map<string, Set<string>>;
  /** Variables in chains whose sizes the analysis does not know (what a user can declare; an unsized sub-expression follows from them). */
  unsized: Set<string>;
  truncated: boolean;
}

export interface ProgramChainOptions {
  expectedIterations: number;
}

function rangeKey(r: Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

function sizeOf(stats: NodeStats | undefined): MatrixSize | undefined {
  if (!stats || stats.type.dataType !== "matrix" || stats.rows === null || stats.cols === null) return undefined;
  const cells = stats.rows * stats.cols;
  return { rows: stats.rows, cols: stats.cols, nnz: stats.nnz === null ? cells : Math.min(cells, Math.max(0, stats.nnz)) };
}

const kindOfType = (dataType: string): ValueKind => (dataType === "matrix" ? "matrix" : dataType === "scalar" ? "scalar" : "other");

export function programChains(analysis: ProgramAnalysis, text: string, options: ProgramChainOptions): ProgramChains {
  const program = analysis.parsed.program;
  const result: ProgramChains = { blocks: [], regions: [], chains: [], leaves: new Map(), names: identifierNames(program), symmetric: new Map(), unsized: new Set(), truncated: false };
  const textOf = (e: Expression) => textInRange(text, e.range);

  // Kinds of variables per scope, from the types of their DAG nodes.
  const scopeKinds = new Map<string, Map<string, ValueKind>>();
  for (const info of analysis.dags.blocks) {
    const scope = info.functionName ?? "";
    const kinds = scopeKinds.get(scope) ?? new Map<string, ValueKind>();
    scopeKinds.set(scope, kinds);
    const note = (name: string, id: number) => {
      const kind = kindOfType(info.dag.nodes[id]!.type.dataType);
      const before = kinds.get(name);
      kinds.set(name, before === undefined || before === kind ? kind : "other");
    };
    for (const [name, id] of info.dag.inputs) note(name, id);
    for (const [name, id] of info.dag.outputs) note(name, id);
  }
  const variableKind = (scope: string) => (name: string) => scopeKinds.get(scope)?.get(name) ?? "other";

  // Symmetric variables per scope: plain assignments in the main program and in each function body.
  const symmetryScopes: { scope: string; body: readonly Statement[]; params: string[] }[] = [{ scope: "", body: program.body, params: [] }];
  for (const f of analysis.dags.programBlocks.functions) {
    if (f.statement.kind === "function") symmetryScopes.push({ scope: f.name, body: f.statement.body, params: f.params });
  }
  for (const { scope, body, params } of symmetryScopes) {
    const kind = variableKind(scope);
    const assignments = scopeAssignments(body, scope === "");
    for (const p of params) assignments.set(p, undefined);
    let leaf = 0;
    const sumOf = (e: Expression, symmetric: ReadonlySet<string>): Sum | undefined => {
      if (expressionKind(e, kind) !== "matrix") return undefined;
      const context: SumContext = {
        kindOf: (x) => expressionKind(x, kind),
        identifierAtom: (x) => ({ key: x.name, text: x.name, name: x.name, invariantLoops: 0, symmetric: symmetric.has(x.name) }),
        opaqueAtom: (x) => ({ key: `⟨${textOf(x)}@${rangeKey(x.range)}⟩`, text: `(${textOf(x)})`, invariantLoops: 0, symmetric: isDiagonalConstructor(x) }),
        textOf,
        newLeaf: () => leaf++,
      };
      return expressionSums(e, context).sum;
    };
    result.symmetric.set(scope, symmetricVariables({ assignments, sumOf }));
  }

  let loopIds = 0;
  // Values reaching each point of a scope: a variable assigned in a block gets that block's last version; where paths meet (after an if, at a loop's head and after it) the variables assigned on them get a fresh value.
  let merges = 0;
  const merged = (scope: string, name: string) => `${initialValue(scope, name)}~${merges++}`;
  const walk = (blocks: readonly StatementBlock[], scope: string, loops: ChainLoop[], runs: number, constants: Map<string, number>, values: Map<string, string>, nest: NestStep[]) => {
    for (const block of blocks) {
      if (block.kind === "basic") {
        const info = analysis.dags.byBlock.get(block);
        const assigned = info ? blockChains(info, scope, loops, runs, values, nest) : new Map<string, string>();
        for (const name of block.writes) values.set(name, assigned.get(name) ?? merged(scope, name));
        const outputs = analysis.sizes.blocks.get(block)?.outputs;
        for (const name of block.writes) {
          const value = outputs?.get(name)?.value;
          if (typeof value === "number") constants.set(name, value);
          else constants.delete(name);
        }
      } else if (block.kind === "if") {
        const step = (branch: "then" | "else"): NestStep[] => [...nest, { statement: block.statement, branch, values: new Map(values), runs }];
        walk(block.thenBlocks, scope, loops, runs, new Map(constants), new Map(values), step("then"));
        walk(block.elseBlocks, scope, loops, runs, new Map(constants), new Map(values), step("else"));
        for (const name of block.writes) constants.delete(name);
        for (const name of block.writes) values.set(name, merged(scope, name));
      } else {
        const statement = block.statement;
        const iterations = loopIterations(statement, constants, options.expectedIterations);
        const writes = new Set(block.writes);
        if (block.kind !== "while") writes.add(block.variable);
        const loop: ChainLoop = { id: loopIds++, statement, writes, iterations, entries: runs };
        const inner = new Map(constants);
        for (const name of writes) inner.delete(name);
        const head = new Map(values);
        for (const name of writes) head.set(name, merged(scope, name));
        walk(block.bodyBlocks, scope, [loop, ...loops], runs * iterations.count, inner, head, [...nest, { statement, branch: "body", values: new Map(values), runs }]);
        for (const name of writes) constants.delete(name);
        for (const name of writes) values.set(name, merged(scope, name));
      }
    }
  };

  /** Adds the block's chains; returns the value each variable it assigns has at its end. */
  const blockChains = (info: BlockDagInfo, scope: string, loops: ChainLoop[], runs: number, entry: ReadonlyMap<string, string>, nest: NestStep[]): Map<string, string> => {
    const chains: BlockChains = { index: result.blocks.length, info, loops, runs, regions: [], chains: [], scope, nest };
    result.blocks.push(chains);
    const sizes = analysis.sizes.blocks.get(info.block);
    const nodeAt = new Map<string, number>();
    for (const node of info.dag.nodes) if (!nodeAt.has(rangeKey(node.range))) nodeAt.set(rangeKey(node.range), node.id);
    const statsAt = (e: Expression) => {
      const id = nodeAt.get(rangeKey(e.range));
      return id === undefined || e.kind === "identifier" ? undefined : sizes?.nodes[id];
    };
    const kindOfVariable = variableKind(scope);
    const nodeKind = (e: Expression): ValueKind | undefined => {
      if (e.kind === "identifier") return undefined;
      const id = nodeAt.get(rangeKey(e.range));
      return id === undefined ? undefined : kindOfType(info.dag.nodes[id]!.type.dataType);
    };
    const kindOf = (e: Expression) => expressionKind(e, kindOfVariable, nodeKind);
    const symmetric = result.symmetric.get(scope) ?? new Set<string>();
    const prefix = scope === "" ? "" : `${scope}::`;
    const versions = new Map<string, { version: number; size?: MatrixSize; sketch?: MncSketch }>();
    const current = (name: string) => {
      let v = versions.get(name);
      if (!v) {
        const input = info.dag.inputs.get(name);
        const stats = input === undefined ? undefined : sizes?.nodes[input];
        const size = sizeOf(stats);
        const sketch = atomSketch(stats);
        v = size ? { version: 0, size, ...(sketch ? { sketch } : {}) } : { version: 0 };
        versions.set(name, v);
      }
      return v;
    };
    const invariantLoops = (name: string) => {
      let n = 0;
      while (n < loops.length && !loops[n]!.writes.has(name)) n++;
      return n;
    };
    const identifierAtom = (e: Identifier): Atom => {
      const v = current(e.name);
      const key = v.version === 0 ? `${prefix}${e.name}` : `${prefix}${e.name}#${v.version}@${chains.index}`;
      if (!v.size) result.unsized.add(e.name);
      return { key, text: e.name, name: e.name, ...(v.size ? { size: v.size } : {}), ...(v.size && v.sketch ? { sketch: v.sketch } : {}), invariantLoops: v.version === 0 ? invariantLoops(e.name) : 0, symmetric: symmetric.has(e.name) };
    };
    const opaqueAtom = (e: Expression): Atom => {
      const size = sizeOf(statsAt(e));
      const sketch = atomSketch(statsAt(e));
      const text = textOf(e);
      return { key: `⟨${text}@${rangeKey(e.range)}⟩`, text: `(${text})`, ...(size ? { size } : {}), ...(size && sketch ? { sketch } : {}), invariantLoops: 0, symmetric: false, range: e.range };
    };
    const context: SumContext = {
      kindOf,
      identifierAtom,
      opaqueAtom,
      textOf,
      newLeaf: (e) => {
        const id = result.leaves.size;
        result.leaves.set(id, e);
        return id;
      },
    };
    const findRegions = (e: Expression, statement: SimpleStatement, statementIndex: number) => {
      if (kindOf(e) === "matrix" && isChainNode(e, kindOf)) {
        const sums = expressionSums(e, context);
        if (sums.truncated) result.truncated = true;
        if (sums.sum.some((p) => p.factors.length >= 2)) {
          const region: Region = { id: result.regions.length, block: chains, statement, statementIndex, sums };
          result.regions.push(region);
          chains.regions.push(region);
          sums.sum.forEach((product, productIndex) => {
            if (product.factors.length < 2) return;
            const values = product.factors.map((f) => (f.atom.name !== undefined && f.atom.key === `${prefix}${f.atom.name}` ? (entry.get(f.atom.name) ?? f.atom.key) : f.atom.key));
            const chain: Chain = { id: result.chains.length, region, productIndex, product, values };
            result.chains.push(chain);
            chains.chains.push(chain);
          });
        }
        for (const inner of sums.inner) {
          if (inner !== e && !(kindOf(inner) === "matrix" && isChainNode(inner, kindOf))) findRegions(inner, statement, statementIndex);
          else for (const c of childExpressions(inner)) findRegions(c, statement, statementIndex);
        }
        return;
      }
      for (const c of childExpressions(e)) findRegions(c, statement, statementIndex);
    };
    info.block.statements.forEach((statement, statementIndex) => {
      for (const e of statementExpressions(statement)) findRegions(e, statement, statementIndex);
      for (const name of assignedNames(statement)) {
        const before = current(name);
        const stats = statement.kind === "assign" && statement.target.kind === "identifier" ? statsAt(statement.value) : undefined;
        const value = sizeOf(stats);
        const sketch = atomSketch(stats);
        versions.set(name, value ? { version: before.version + 1, size: value, ...(sketch ? { sketch } : {}) } : { version: before.version + 1 });
      }
    });
    const assigned = new Map<string, string>();
    for (const [name, v] of versions) if (v.version > 0) assigned.set(name, `${prefix}${name}#${v.version}@${chains.index}`);
    return assigned;
  };

  walk(analysis.dags.programBlocks.main, "", [], 1, new Map(), new Map(), []);
  for (const f of analysis.dags.programBlocks.functions) if (!f.external) walk(f.bodyBlocks, f.name, [], 1, new Map(), new Map(), []);
  return result;
}

/** Nodes the sums take apart (the rest are opaque factors). */
function isChainNode(e: Expression, kindOf: (e: Expression) => ValueKind): boolean {
  if (e.kind === "identifier") return true;
  if (e.kind === "call") return e.callee.name === "t" && e.args.length === 1;
  if (e.kind === "unary") return e.op === "-" || e.op === "+";
  if (e.kind !== "binary") return false;
  if (e.op === "%*%" || e.op === "+" || e.op === "-") return kindOf(e.left) === "matrix" && kindOf(e.right) === "matrix";
  if (e.op === "*") return (kindOf(e.left) === "scalar") !== (kindOf(e.right) === "scalar");
  if (e.op === "/") return kindOf(e.left) === "matrix" && kindOf(e.right) === "scalar";
  return false;
}

/** The variables a simple statement assigns (whole or indexed). */
export function assignedNames(statement: SimpleStatement): string[] {
  if (statement.kind === "assign") return [statement.target.kind === "index" ? statement.target.target.name : statement.target.kind === "identifier" ? statement.target.name : ""].filter((n) => n !== "");
  if (statement.kind === "multiAssign") return statement.targets.map((t) => (t.kind === "index" ? t.target.name : t.kind === "identifier" ? t.name : "")).filter((n) => n !== "");
  return [];
}

/** Per variable, the values of its plain `name = value` assignments; undefined when it is assigned any other way. */
function scopeAssignments(body: readonly Statement[], main: boolean): Map<string, Expression[] | undefined> {
  const out = new Map<string, Expression[] | undefined>();
  const spoil = (name: string) => out.set(name, undefined);
  forEachStatement(body, (s, place) => {
    if (main && place.inFunction) return;
    if (s.kind === "assign") {
      if (s.target.kind === "identifier" && s.op === "=" ) {
        const list = out.has(s.target.name) ? out.get(s.target.name) : [];
        if (list) list.push(s.value);
        out.set(s.target.name, list);
      } else if (s.target.kind === "identifier") spoil(s.target.name);
      else if (s.target.kind === "index") spoil(s.target.target.name);
    } else if (s.kind === "multiAssign") {
      for (const t of s.targets) spoil(t.kind === "index" ? t.target.name : t.name);
    } else if (s.kind === "for") spoil(s.variable.name);
  });
  return out;
}

/** `diag(v)` of a column vector (`matrix(..., cols=1)`, `rowSums(X)`): a diagonal matrix. */
function isDiagonalConstructor(e: Expression): boolean {
  if (e.kind !== "call" || e.callee.name !== "diag" || e.args.length !== 1) return false;
  const v = e.args[0]!.value;
  if (v.kind !== "call") return false;
  if (v.callee.name === "rowSums" || v.callee.name === "rowMeans") return true;
  return v.callee.name === "matrix" && v.args.some((a) => a.name === "cols" && a.value.kind === "number" && a.value.value === 1);
}

function identifierNames(program: Program): Set<string> {
  const names = new Set<string>();
  const visit = (e: Expression) => {
    if (e.kind === "identifier") names.add(e.name);
    if (e.kind === "index") names.add(e.target.name);
    if (e.kind === "call") names.add(e.callee.name);
    for (const c of childExpressions(e)) visit(c);
  };
  forEachStatement(program.body, (s) => {
    if (s.kind === "assign") {
      names.add(s.target.kind === "index" ? s.target.target.name : s.target.name);
      visit(s.target);
      visit(s.value);
    } else if (s.kind === "multiAssign") {
      for (const t of s.targets) names.add(t.kind === "index" ? t.target.name : t.name);
      visit(s.call);
    } else if (s.kind === "callStatement") visit(s.call);
    else if (s.kind === "if" || s.kind === "while") visit(s.condition);
    else if (s.kind === "for") {
      names.add(s.variable.name);
      visit(s.iterable.from);
      visit(s.iterable.to);
    } else if (s.kind === "function") {
      names.add(s.name.name);
      for (const p of s.params) names.add(p.name.name);
    }
  });
  return names;
}
