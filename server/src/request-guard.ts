/**
 * What every request handler of the server goes through: after `shutdown`
 * a request is answered with InvalidRequest (LSP); params without a
 * `textDocument.uri` or with a `position`/`range` that is not made of
 * non-negative whole numbers get InvalidParams; a handler that throws
 * anything but a ResponseError answers the request's empty result (null
 * or []) and logs an "internal error" line, so a bug in one feature never
 * reaches the client as a failed request or takes the server down.
 */
import { ErrorCodes, ResponseError } from "vscode-languageserver/node";

export interface GuardState {
  shutDown: boolean;
  logError(message: string): void;
}

const MAX_COORDINATE = 2 ** 31 - 1;

function isCoordinate(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_COORDINATE;
}

function isPosition(value: unknown): boolean {
  return typeof value === "object" && value !== null && isCoordinate((value as { line?: unknown }).line) && isCoordinate((value as { character?: unknown }).character);
}

/** Why the params cannot be answered, or undefined when they can. */
export function paramsProblem(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return "the request needs params";
  const p = params as { textDocument?: { uri?: unknown }; position?: unknown; range?: unknown };
  if ("textDocument" in p && typeof p.textDocument?.uri !== "string") return "textDocument.uri must be a string";
  if ("position" in p && !isPosition(p.position)) return `position must be {line, character} with whole numbers from 0, not ${JSON.stringify(p.position)}`;
  if ("range" in p) {
    const range = p.range as { start?: unknown; end?: unknown } | null;
    if (typeof range !== "object" || range === null || !isPosition(range.start) || !isPosition(range.end)) return `range must be {start, end} positions with whole numbers from 0, not ${JSON.stringify(p.range)}`;
  }
  return undefined;
}

/** `handler` behind the checks above; `empty` is its answer when it fails internally. */
export function guarded<P, R, Rest extends unknown[]>(state: GuardState, name: string, empty: R, handler: (params: P, ...rest: Rest) => R | Promise<R>): (params: P, ...rest: Rest) => Promise<R> {
  return async (params, ...rest) => {
    if (state.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, `${name}: the server is shutting down (shutdown was requested)`);
    const problem = paramsProblem(params);
    if (problem !== undefined) throw new ResponseError(ErrorCodes.InvalidParams, `${name}: ${problem}`);
    try {
      return await handler(params, ...rest);
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      state.logError(`internal error in ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return empty;
    }
  };
}
