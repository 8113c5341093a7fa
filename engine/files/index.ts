/**
 * The engine's one door to the disk: the `FileSystem` interface (read,
 * stat, list, write), its implementation on the local disk and one in
 * memory for tests and editor buffers. Every engine stage that touches a
 * file takes a `FileSystem` (ARCHITECTURE.md, "Core code does no IO outside
 * FileSystem"); only `node-file-system.ts` imports node:fs for that.
 * `code-cache.ts` keeps V8's compiled code of our own bundles between
 * processes (process start, not a file the user names).
 */
export type { FileKind, FileSystem, TextRead } from "./file-system";
export { fileKind, fileSize, isFile, isFolder, listFolder, memoryFileSystem, MAX_TEXT_FILE_BYTES, readFileHead, readText, tooLargeProblem, writeTextFile } from "./file-system";
export { nodeFileSystem } from "./node-file-system";
export { dmlLensCacheDir } from "./cache-dir";
export { CODE_CACHE_ENV, codeCacheDir, importModule, requireWithCodeCache, type CacheUse, type CachedBundle } from "./code-cache";
