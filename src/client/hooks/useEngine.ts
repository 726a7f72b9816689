/**
 * The render engine this server uses, as render.allowance tells it (one query in the shared cache,
 * the same the render flow's pages read; through lib/queries, as the landing page reads it first), with the one rule for claims about it: a text that says
 * AI is shown only when the engine is AI (lib/engineCopy). Until the server has answered, the
 * engine counts as not AI.
 */
import { useCallback } from "react";
import { engineTextKey } from "../lib/engineCopy";
import { useSharedQuery } from "../lib/queries";

export function useEngine() {
  const allowance = useSharedQuery("render.allowance");
  const engine = allowance.data?.engine ?? null;
  const isAi = engine?.isAi === true;
  /** The text key to show: the AI wording with an AI engine, its honest alternative otherwise. */
  const textKey = useCallback((key: string) => engineTextKey(key, isAi), [isAi]);
  return { engine, isAi, known: engine !== null, textKey };
}
