/**
 * A SystemDS installation in a folder: a source tree or a release, with the
 * builtin scripts in `scripts/builtin/`. Its files are read through a
 * FileSystem (the disk by default), safely (source-reader.ts).
 */
import path from "node:path";
import { type FileSystem, isFolder, listFolder, nodeFileSystem } from "../files";
import { fileSystemSourceAccess, type SourceFileAccess } from "./source-reader";
import type { SystemdsInstallation } from "./systemds-installation";

/** A folder installation (a source tree or a release with `scripts/builtin/`); undefined when `folder` has no `scripts/builtin/`. */
export function folderInstallation(folder: string, origin: string, fs: FileSystem = nodeFileSystem): SystemdsInstallation | undefined {
  const location = path.resolve(folder);
  const scriptsRoot = path.join(location, "scripts");
  if (!isFolder(fs, path.join(scriptsRoot, "builtin"))) return undefined; // no scripts/builtin/ here: not an installation
  const names = listFolder(fs, path.join(scriptsRoot, "builtin"));
  const disk = fileSystemSourceAccess(fs);
  const builtinScripts = new Set(names.filter((n) => n.endsWith(".dml")).map((n) => n.slice(0, -4)));
  const inside = (file: string) => file === scriptsRoot || file.startsWith(scriptsRoot + path.sep);
  const access: SourceFileAccess = {
    exists: (file) => inside(file) && disk.exists(file),
    read: (file) => (inside(file) ? disk.read(file) : { problem: "it is outside the SystemDS installation" }),
  };
  return { kind: "source-tree", location, origin, scriptsRoot, access, builtinScripts };
}

