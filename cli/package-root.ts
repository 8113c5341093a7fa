/** The package root: one level above this file, both as source (cli/) and bundled (dist/). */
import path from "node:path";

export function packageRoot(): string {
  return path.resolve(__dirname, "..");
}
