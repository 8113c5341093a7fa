/**
 * The engine's one door to the disk: the `FileSystem` interface (read,
 * stat, list, write), its implementation on the local disk and one in
 * memory for tests and editor buffers. Every engine stage that touches a
 * file takes a `FileSystem` (ARCHITECTURE.md, "Core code does no IO outside
 * FileSystem"); only `node-file-system.ts` imports node:fs.
 */
export type { FileKind, FileSystem, TextRead } from "./file-system";
export { fileKind, fileSize, isFile, isFolder, listFolder, memoryFileSystem, MAX_TEXT_FILE_BYTES, readFileHead, readText, tooLargeProblem, writeTextFile } from "./file-system";
export { nodeFileSystem } from "./node-file-system";
