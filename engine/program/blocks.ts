/**
 * AST → statement blocks, as SystemDS's parser forms them
 * (`StatementBlock.mergeStatementBlocks`, research R1), with the variables
 * each block reads and writes (block-sets.ts, variables.ts).
 *
 * Rules:
 * - Every `if`, `while`, `for` and `parfor` is a block of its own; its
 *   bodies are formed by the same rules, recursively.
 * - A maximal run of mergeable simple statements is one basic block. A
 *   "control" simple statement (control-statements.ts: multi-assignment,
 *   user-function call, nested user-function call, `stop`, csv `write`,
 *   `time()`) is a basic block of its own, with `cut` saying why.
 * - Function definitions go to `functions` and do not split the blocks
 *   around them: the DML grammar collects them apart from the statements
 *   (`programroot: (blocks+=statement | functionBlocks+=functionStatement)*`).
 *   A definition nested in a body (a syntax error) is treated the same way.
 *
 * Simplifications (documented, deliberate):
 * - No AST rewriting. SystemDS hoists nested user-function calls into
 *   `_funvarN` temporaries; we only cut around the statement that holds them
 *   and report no `_funvar` names. Hoisting is an optimizer concern.
 * - No LVA-time merge (`mergeFunctionCalls`, R7): a multi-assignment of a
 *   small straight-line (inlinable) user function stays a block of its own,
 *   where SystemDS would merge it with neighbouring blocks before liveness.
 * - No HOP-level block rewrites (R14: removing `if(TRUE)` branches, merging
 *   block sequences, splitting DAGs after csv reads).
 * - DML-bodied builtins (`lm`, `kmeans`, ...) are builtins, not function
 *   calls, unless named in `options.extraFunctions`.
 */
import type { ExternalFunctionDefinition, ForStatement, FunctionDefinition, IfStatement, Program, Statement, WhileStatement } from "../syntax";
import { basicSets, ifSets, loopSets, sequenceSets } from "./block-sets";
import { unboundBuiltinConstants } from "./builtin-constants";
import { blockCut } from "./control-statements";
import { NameList } from "./names";
import type { BasicBlock, BlockCut, ForBlock, FunctionBlock, IfBlock, ProgramBlocks, SimpleStatement, StatementBlock, WhileBlock } from "./statement-block";
import { forEachStatement } from "./statement-walk";
import { collectUserFunctions, type UserFunctions } from "./user-functions";
import { collectExpressionReads, expressionReads, statementReads, statementWrites, type VariableOptions } from "./variables";

export interface FormBlocksOptions {
  /** More names to treat as user-defined functions, e.g. SystemDS's DML-bodied builtins. */
  extraFunctions?: Iterable<string>;
}

interface Context {
  functions: UserFunctions;
  variables: VariableOptions;
}

export function formStatementBlocks(program: Program, options: FormBlocksOptions = {}): ProgramBlocks {
  const context: Context = {
    functions: collectUserFunctions(program, options.extraFunctions),
    variables: { constants: unboundBuiltinConstants(program) },
  };
  const functions: FunctionBlock[] = [];
  forEachStatement(program.body, (statement) => {
    if (statement.kind === "function" || statement.kind === "externalFunction") functions.push(functionBlock(statement, context));
  });
  return { main: formBlocks(program.body, context), functions };
}

function formBlocks(statements: readonly Statement[], context: Context): StatementBlock[] {
  const blocks: StatementBlock[] = [];
  let run: SimpleStatement[] = [];
  const closeRun = () => {
    if (run.length > 0) blocks.push(basicBlock(run, undefined, context));
    run = [];
  };
  for (const statement of statements) {
    switch (statement.kind) {
      case "function":
      case "externalFunction":
        continue;
      case "if":
        closeRun();
        blocks.push(ifBlock(statement, context));
        continue;
      case "while":
        closeRun();
        blocks.push(whileBlock(statement, context));
        continue;
      case "for":
        closeRun();
        blocks.push(forBlock(statement, context));
        continue;
      default: {
        const cut = blockCut(statement, context.functions);
        if (cut === undefined) {
          run.push(statement);
        } else {
          closeRun();
          blocks.push(basicBlock([statement], cut, context));
        }
      }
    }
  }
  closeRun();
  return blocks;
}

function basicBlock(statements: SimpleStatement[], cut: BlockCut | undefined, context: Context): BasicBlock {
  const sets = basicSets(statements.map((s) => ({ reads: statementReads(s, context.variables), writes: statementWrites(s) })));
  const first = statements[0];
  const last = statements[statements.length - 1];
  if (!first || !last) throw new Error("a basic block needs at least one statement");
  const range = { start: first.range.start, end: last.range.end };
  return { kind: "basic", statements, ...(cut ? { cut } : {}), range, ...sets };
}

function ifBlock(statement: IfStatement, context: Context): IfBlock {
  const conditionReads = expressionReads(statement.condition, context.variables);
  const thenBlocks = formBlocks(statement.thenBody, context);
  const elseBlocks = statement.elseBody ? formBlocks(statement.elseBody, context) : [];
  const sets = ifSets(conditionReads, sequenceSets(thenBlocks), statement.elseBody ? sequenceSets(elseBlocks) : undefined);
  return { kind: "if", statement, conditionReads, thenBlocks, elseBlocks, range: statement.range, ...sets };
}

function whileBlock(statement: WhileStatement, context: Context): WhileBlock {
  const conditionReads = expressionReads(statement.condition, context.variables);
  const bodyBlocks = formBlocks(statement.body, context);
  const sets = loopSets(conditionReads, sequenceSets(bodyBlocks));
  return { kind: "while", statement, conditionReads, bodyBlocks, range: statement.range, ...sets };
}

function forBlock(statement: ForStatement, context: Context): ForBlock {
  const iterable = statement.iterable;
  const predicate = new NameList();
  for (const bound of [iterable.from, iterable.to, iterable.kind === "seq" ? iterable.by : undefined]) {
    if (bound) collectExpressionReads(bound, predicate, context.variables);
  }
  const predicateReads = predicate.toArray();
  const variable = statement.variable.name;
  const bodyBlocks = formBlocks(statement.body, context);
  const sets = loopSets(predicateReads, sequenceSets(bodyBlocks, [variable]));
  const kind = statement.parallel ? "parfor" : "for";
  return { kind, statement, variable, predicateReads, bodyBlocks, range: statement.range, ...sets };
}

function functionBlock(statement: FunctionDefinition | ExternalFunctionDefinition, context: Context): FunctionBlock {
  const bodyBlocks = statement.kind === "function" ? formBlocks(statement.body, context) : [];
  return {
    name: statement.name.name,
    statement,
    params: statement.params.map((p) => p.name.name),
    returns: statement.returns.map((p) => p.name.name),
    external: statement.kind === "externalFunction",
    bodyBlocks,
    range: statement.range,
    ...sequenceSets(bodyBlocks),
  };
}
