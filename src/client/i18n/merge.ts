/** Merging an area's texts into a language's tree (resources.ts, for tests; the browser adds each part to i18next as it loads). */
export type TranslationTree = { [key: string]: string | TranslationTree };

/** Adds `source` into `target`; a key present in both is an error naming it. */
export function mergeTexts(target: TranslationTree, source: TranslationTree, where: string, prefix = ""): TranslationTree {
  for (const [key, value] of Object.entries(source)) {
    const name = prefix ? `${prefix}.${key}` : key;
    const existing = target[key];
    if (typeof value === "string" || existing === undefined || typeof existing === "string") {
      if (existing !== undefined) throw new Error(`translation key ${name} is defined twice (${where})`);
      target[key] = typeof value === "string" ? value : structuredClone(value);
    } else {
      mergeTexts(existing, value, where, name);
    }
  }
  return target;
}
