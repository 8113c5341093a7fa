/** The shared control words of a parfor worker (parfor-worker-pool.ts, parfor-worker-main.ts): [state, tasks done]. */
export const STATE = 0;
export const DONE = 1;
export const CONTROL_WORDS = 2;
export const STATE_READY = 1;
/** Set by a worker whose thread is exiting (it takes no more tasks). */
export const STATE_BROKEN = 2;
