/** Every other es text: the main file and the areas not in the first or the demo part, in one file. */
import main from "../es.json";
import type { TranslationTree } from "../merge";

const areas = import.meta.glob<TranslationTree>(["../areas/*/es.json", "!../areas/{shell,home,demo}/*"], {
  eager: true,
  import: "default",
});

export default [main, ...Object.values(areas)] satisfies TranslationTree[];
