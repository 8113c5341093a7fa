/**
 * What building a block's DAG needs to know beyond the block itself: which
 * called names are user functions (and what they return), which names are
 * builtin constants, the types of the variables live into the block, and,
 * inside loops, which variables the enclosing loops write. With a SystemDS
 * installation, the declared results of the builtin scripts the program
 * calls (`[C, Y] = kmeans(...)` gives two matrices).
 */
import type { ExternalFunctionDefinition, FunctionDefinition, Program, TypeSpec } from "../syntax";
import { scriptFunctions } from "./builtin-script";
import { unboundBuiltinConstants } from "./builtin-constants";
import { lookupBuiltin } from "./builtins";
import { calledNames } from "./called-names";
import type { SourceFiles } from "./source-reader";
import { builtinFunctionNames } from "./systemds-installation";
import type { DagType, DataType, ValueType } from "./dag-types";
import { forEachStatement } from "./statement-walk";
import { collectUserFunctions, type UserFunctions } from "./user-functions";

/** The declared parameter and result types of a user function. */
export interface FunctionSignature {
  name: string;
  params: { name: string; type: DagType }[];
  returns: { name: string; type: DagType }[];
}

export interface DagContext {
  functions: UserFunctions;
  /** Signatures of the functions defined in the file, by plain name. */
  signatures: ReadonlyMap<string, FunctionSignature>;
  /**
   * The builtin scripts the program calls, by builtin name: the signatures
   * of their `m_`/`s_`/`f_` functions (the one a call runs depends on its
   * first argument's type: dag-call-types.ts).
   */
  builtinScripts?: ReadonlyMap<string, readonly FunctionSignature[]>;
  /** Names read as builtin constants (`pi`, `Inf`, `NaN` when the program never binds them). */
  constants: ReadonlySet<string>;
  /** Types of variables live into the block, when known (else `unknown`). */
  variableTypes?: { get(name: string): DagType | undefined };
  /**
   * Inside loops: the variables each enclosing loop may write (its block's
   * `writes`), innermost loop first; nodes are then marked `loopConstant`.
   */
  loopWrites?: readonly ReadonlySet<string>[];
}

export interface DagContextOptions {
  /** More names to treat as user-defined functions (as in `formStatementBlocks`). */
  extraFunctions?: Iterable<string>;
  /** The source files of the analysis, when they carry a SystemDS installation whose builtin scripts the program calls. */
  builtinScripts?: SourceFiles;
}

export const UNKNOWN_TYPE: DagType = { dataType: "unknown", valueType: "unknown" };

/** The context of a program's top level: its user functions, their signatures and its builtin constants. */
export function createDagContext(program: Program, options: DagContextOptions = {}): DagContext {
  const signatures = new Map<string, FunctionSignature>();
  forEachStatement(program.body, (statement) => {
    if (statement.kind !== "function" && statement.kind !== "externalFunction") return;
    signatures.set(statement.name.name, functionSignature(statement));
  });
  const functions = collectUserFunctions(program, options.extraFunctions);
  const builtinScripts = options.builtinScripts && builtinScriptSignatures(options.builtinScripts, program, functions);
  return {
    functions,
    signatures,
    constants: unboundBuiltinConstants(program),
    ...(builtinScripts && builtinScripts.size > 0 ? { builtinScripts } : {}),
  };
}

function functionSignature(statement: FunctionDefinition | ExternalFunctionDefinition): FunctionSignature {
  return {
    name: statement.name.name,
    params: statement.params.map((p) => ({ name: p.name.name, type: typeFromSpec(p.type) })),
    returns: statement.returns.map((p) => ({ name: p.name.name, type: typeFromSpec(p.type) })),
  };
}

/** The signatures of the functions a call of each builtin script `program` calls may run (not hidden by its own functions, not native). */
function builtinScriptSignatures(files: SourceFiles, program: Program, functions: UserFunctions): Map<string, FunctionSignature[]> {
  const found = new Map<string, FunctionSignature[]>();
  for (const name of calledNames(program)) {
    if (functions.names.has(name) || (lookupBuiltin(name) && lookupBuiltin(name)!.kind !== "dml")) continue;
    const loaded = files.loadBuiltinScript(name);
    if (loaded?.kind !== "file") continue;
    const defined = scriptFunctions(loaded);
    const candidates = [...builtinFunctionNames(name, "unknown"), name].flatMap((fn) => (defined.has(fn) ? [functionSignature(defined.get(fn)!)] : []));
    if (candidates.length > 0) found.set(name, candidates);
  }
  return found;
}

/**
 * A declared type as written (`int`, `Double`, `matrix[double]`,
 * `Frame[Unknown]`, `list[unknown]`); no data type means scalar. Misspelled
 * names give `unknown` (the syntax stage reports them).
 */
export function typeFromSpec(spec: TypeSpec): DagType {
  const dataType: DataType = spec.dataType === undefined ? "scalar" : dataTypeName(spec.dataType);
  return { dataType, valueType: valueTypeName(spec.valueType) };
}

function dataTypeName(name: string): DataType {
  switch (name.toLowerCase()) {
    case "matrix":
      return "matrix";
    case "frame":
      return "frame";
    case "list":
      return "list";
    case "scalar":
      return "scalar";
    default:
      return "unknown";
  }
}

function valueTypeName(name: string): ValueType {
  switch (name.toLowerCase()) {
    case "int":
    case "integer":
      return "int";
    case "double":
      return "double";
    case "boolean":
      return "boolean";
    case "string":
      return "string";
    default:
      return "unknown";
  }
}
