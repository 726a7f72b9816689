/** The es texts the first paint shows (the app's frame and the landing page): one file, loaded first. */
import home from "../areas/home/es.json";
import shell from "../areas/shell/es.json";
import type { TranslationTree } from "../merge";

export default [shell, home] satisfies TranslationTree[];
