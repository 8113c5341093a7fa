/**
 * A SystemDS installation in a folder: a source tree or a release, with the
 * builtin scripts in `scripts/builtin/`. Its files are read from the disk,
 * safely (source-reader.ts).
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { diskSourceAccess, type SourceFileAccess } from "./source-reader";
import type { SystemdsInstallation } from "./systemds-installation";

/** A folder installation (a source tree or a release with `scripts/builtin/`); undefined when `folder` has no `scripts/builtin/`. */
export function folderInstallation(folder: string, origin: string): SystemdsInstallation | undefined {
  const location = path.resolve(folder);
  const scriptsRoot = path.join(location, "scripts");
  let names: string[];
  try {
    if (!statSync(path.join(scriptsRoot, "builtin")).isDirectory()) return undefined;
    names = readdirSync(path.join(scriptsRoot, "builtin"));
  } catch {
    return undefined; // no scripts/builtin/ here: not an installation
  }
  const builtinScripts = new Set(names.filter((n) => n.endsWith(".dml")).map((n) => n.slice(0, -4)));
  const inside = (file: string) => file === scriptsRoot || file.startsWith(scriptsRoot + path.sep);
  const access: SourceFileAccess = {
    exists: (file) => inside(file) && diskSourceAccess.exists(file),
    read: (file) => (inside(file) ? diskSourceAccess.read(file) : { problem: "it is outside the SystemDS installation" }),
  };
  return { kind: "source-tree", location, origin, scriptsRoot, access, builtinScripts };
}

