/**
 * The little of the WebAssembly JS API the kernels use, typed here: the
 * project's TypeScript libs (ES2022 + node) declare no `WebAssembly` global,
 * and a global declaration here could clash with a lib added later.
 */

/** A compiled module: cloneable to worker threads. */
export interface WasmModule {
  readonly __wasmModule?: never;
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  grow(pages: number): number;
}

interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
}

/** The WebAssembly global, or undefined where there is none. */
export function webAssembly(): WebAssemblyApi | undefined {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  return typeof api === "object" && api !== null ? api : undefined;
}
