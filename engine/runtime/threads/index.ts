/** Worker threads shared by the runtime's synchronous kernel pools. */
export { STATE_BROKEN, STATE_READY, WorkerGroup, type PooledWorker } from "./worker-group";
export { OPTIMIZATION_INTRINSICS_SOURCE, PRIMING_FILL } from "./optimization-intrinsics";
export { chunkWorkerSource, CONTROL_SEQ, CONTROL_STATE, postCall, PROGRESS_DONE, PROGRESS_FAILED, PROGRESS_NEXT, runChunks, stopChunkWorkers, type ChunkWorker } from "./chunked-call";
