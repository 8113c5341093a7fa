/**
 * The VS Code commands of the client that server-made code actions run (a
 * code action's `command`): shared by server and client so neither spells
 * the id on its own.
 */

/** "Explain this rewrite": opens a suggestion's derivation in a read-only view (client/src/derivation-view.ts). */
export const EXPLAIN_REWRITE_COMMAND = "dmlLens.explainRewrite";
