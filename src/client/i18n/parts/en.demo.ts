/** The demo dialog's en texts (with the first part's, all it shows). */
import demo from "../areas/demo/en.json";
import type { TranslationTree } from "../merge";

export default [demo] satisfies TranslationTree[];
