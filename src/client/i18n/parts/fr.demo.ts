/** The demo dialog's fr texts (with the first part's, all it shows). */
import demo from "../areas/demo/fr.json";
import type { TranslationTree } from "../merge";

export default [demo] satisfies TranslationTree[];
