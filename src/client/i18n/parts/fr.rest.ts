/** Every other fr text: the main file and the areas not in the first or the demo part, in one file. */
import main from "../fr.json";
import type { TranslationTree } from "../merge";

const areas = import.meta.glob<TranslationTree>(["../areas/*/fr.json", "!../areas/{shell,home,demo}/*"], {
  eager: true,
  import: "default",
});

export default [main, ...Object.values(areas)] satisfies TranslationTree[];
