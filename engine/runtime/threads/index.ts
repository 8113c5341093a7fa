/** Worker threads shared by the runtime's synchronous kernel pools. */
export { STATE_BROKEN, STATE_READY, WorkerGroup, type PooledWorker } from "./worker-group";
