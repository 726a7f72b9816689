/** The demo dialog's es texts (with the first part's, all it shows). */
import demo from "../areas/demo/es.json";
import type { TranslationTree } from "../merge";

export default [demo] satisfies TranslationTree[];
