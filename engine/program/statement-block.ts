/**
 * Statement blocks as SystemDS forms them at parse time (one HOP DAG per
 * basic block), with the variable sets of SystemDS's forward liveness pass
 * (`StatementBlock.initializeforwardLV`). See blocks.ts for the rules.
 */
import type { AssignmentStatement, CallStatement, ExternalFunctionDefinition, ForStatement, FunctionDefinition, IfStatement, MultiAssignmentStatement, Range, SetwdStatement, SourceStatement, WhileStatement } from "../syntax";

/** The statements that can stand in a basic block (everything but control flow and definitions). */
export type SimpleStatement = AssignmentStatement | MultiAssignmentStatement | CallStatement | SourceStatement | SetwdStatement;

/**
 * Why a simple statement is a "control statement" that gets a basic block of
 * its own instead of being merged with its neighbours (see control-statements.ts).
 */
export type BlockCut =
  | "multi-assignment"
  | "function-call"
  | "nested-function-call"
  | "stop"
  | "csv-write"
  | "time";

/**
 * The variable sets of a block, as names in first-occurrence order.
 * - `reads`: every variable the block reads (SystemDS `_read`);
 * - `writes`: every variable it may assign (SystemDS `_updated`);
 * - `gen`: variables read before the block itself (certainly) assigned them, i.e. its live-in demand (`_gen`);
 * - `kill`: variables the block certainly assigns (`_kill`; for an `if`, only those both branches assign,
 *   and loop bodies never count since they may run zero times).
 */
export interface VariableSets {
  reads: string[];
  writes: string[];
  gen: string[];
  kill: string[];
}

/** A maximal run of mergeable simple statements, or one control statement on its own (`cut` says why). */
export interface BasicBlock extends VariableSets {
  kind: "basic";
  statements: SimpleStatement[];
  /** Set when the block holds a single statement that SystemDS keeps apart from its neighbours. */
  cut?: BlockCut;
  range: Range;
}

export interface IfBlock extends VariableSets {
  kind: "if";
  statement: IfStatement;
  conditionReads: string[];
  thenBlocks: StatementBlock[];
  /** Empty when there is no `else`. */
  elseBlocks: StatementBlock[];
  range: Range;
}

export interface WhileBlock extends VariableSets {
  kind: "while";
  statement: WhileStatement;
  conditionReads: string[];
  bodyBlocks: StatementBlock[];
  range: Range;
}

/** `for` and `parfor`; the loop variable is written (and killed), never part of `gen`. */
export interface ForBlock extends VariableSets {
  kind: "for" | "parfor";
  statement: ForStatement;
  variable: string;
  /** Reads of `from`, `to` and the `seq` increment; parfor options are raw text and read nothing. */
  predicateReads: string[];
  bodyBlocks: StatementBlock[];
  range: Range;
}

export type StatementBlock = BasicBlock | IfBlock | WhileBlock | ForBlock;

/** A function definition; its sets are those of its body (parameter defaults are not counted). */
export interface FunctionBlock extends VariableSets {
  name: string;
  statement: FunctionDefinition | ExternalFunctionDefinition;
  params: string[];
  returns: string[];
  /** `externalFunction` definitions are parsed but unsupported by SystemDS: no body. */
  external: boolean;
  bodyBlocks: StatementBlock[];
  range: Range;
}

export interface ProgramBlocks {
  main: StatementBlock[];
  /** Every function definition of the file, in source order. */
  functions: FunctionBlock[];
}
