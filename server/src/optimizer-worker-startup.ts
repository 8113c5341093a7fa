/**
 * The optimizer's worker thread start (dist/optimizer-worker-startup.js,
 * what the server's optimizer and derivation threads run): loads the
 * worker's bundle (dist/optimizer-worker.js) with V8's code cache
 * (startBundle). The server keeps its optimizer's thread for the session
 * and ends it with `terminate()`, which runs no exit handler, so the cache
 * is also written a few seconds after the start, once the first blocks are
 * optimized. Measured on this machine: ALS-CG opened to "optimizer: idle"
 * (every block optimized) 521-547 ms without, 479-507 ms with it.
 */
import path from "node:path";
import { startBundle } from "../../engine/execution";

/** After the first blocks of a document: their optimizations compiled most of the worker's code. */
const SAVE_AFTER_MS = 5_000;

startBundle(path.join(__dirname, "optimizer-worker.js"), { saveAfterMs: SAVE_AFTER_MS });
