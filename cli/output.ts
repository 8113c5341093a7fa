/**
 * Where the command line writes; one place so that tests and bench tables
 * agree, and so that a caller in the same process (the command-line fuzz
 * harness) can run `main` with the output captured (`captureOutput`).
 */

interface OutputSink {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processSink: OutputSink = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

let sink: OutputSink = processSink;

export function out(text: string): void {
  sink.stdout(text.endsWith("\n") ? text : text + "\n");
}

export function err(text: string): void {
  sink.stderr(text.endsWith("\n") ? text : text + "\n");
}

/** Writes `text` to standard output as it is (a script's print() lines). */
export function write(text: string): void {
  sink.stdout(text);
}

/**
 * Runs `command` with everything `out`, `err` and `write` print collected
 * instead of written; one capture at a time (the sink is restored after).
 */
export async function captureOutput<T>(command: () => Promise<T>): Promise<{ value: T; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const previous = sink;
  sink = { stdout: (t) => void stdout.push(t), stderr: (t) => void stderr.push(t) };
  try {
    const value = await command();
    return { value, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    sink = previous;
  }
}

/** Renders rows as a left-aligned text table with a header line. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
