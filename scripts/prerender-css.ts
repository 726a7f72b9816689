/**
 * The pre-rendered landing page's own stylesheet (issue 25, decision 056): the rules of the client's
 * built CSS that its HTML can use, inlined in the page so that the first paint waits for no
 * stylesheet request. The whole file still loads after the first paint (src/client/inline/boot.js),
 * for everything the page draws later.
 *
 * A style rule stays when one of its selectors can match: every class and element it names is on
 * the pages (what :not() names is not required, a list inside :is(), :where() or :has() needs one of
 * its alternatives, and the reset's pseudo-elements of form controls need a form control). Rules
 * that name neither (the body's colours, :focus-visible) and @keyframes always stay. Then custom
 * properties that nothing reads any more (the theme's unused colours, Tailwind's unused --tw-* and
 * their @property rules) go, until none is left. What stays is the built file's own text, in its
 * order, byte for byte (lightningcss only reads the selectors): it cascades exactly as the file does,
 * and the file loaded later changes nothing on the page.
 */
import { transform, type Selector } from "lightningcss";

/** What a page offers the selectors: the classes on its elements and the elements' names. */
export interface PageVocabulary {
  classes: ReadonlySet<string>;
  elements: ReadonlySet<string>;
}

/**
 * The classes on the elements of these HTML pages (attribute values as React escapes them) and the
 * elements' names; `extraClasses` are classes a script sets before the first paint (theme-init's dark).
 */
export function pageVocabulary(pages: readonly string[], extraClasses: readonly string[] = []): PageVocabulary {
  const classes = new Set<string>(extraClasses);
  const elements = new Set<string>();
  for (const html of pages) {
    for (const [, name] of html.matchAll(/<([a-zA-Z][\w-]*)/g)) elements.add(name!.toLowerCase());
    for (const [, value] of html.matchAll(/\sclass="([^"]*)"/g)) {
      const decoded = value!
        .replaceAll("&quot;", '"')
        .replaceAll("&#x27;", "'")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&amp;", "&");
      for (const name of decoded.split(/\s+/)) if (name) classes.add(name);
    }
  }
  return { classes, elements };
}

/** Pseudo-elements only form controls have (the reset styles them): a page without one needs none of their rules. */
const FORM_CONTROLS = ["input", "textarea", "select"];
const isFormPseudoElement = (kind: string, name: string | undefined) =>
  kind === "placeholder" ||
  kind === "file-selector-button" ||
  (kind === "custom" &&
    /^-webkit-(date-and-time-value|datetime-edit|calendar-picker-indicator|inner-spin-button|outer-spin-button|search-)/.test(name ?? ""));

/** Whether a selector can match an element of a page with this vocabulary. */
function canMatch(selector: Selector, page: PageVocabulary): boolean {
  return selector.every((component) => {
    if (component.type === "class") return page.classes.has(component.name);
    if (component.type === "type") return page.elements.has(component.name.toLowerCase());
    if (component.type === "pseudo-element") {
      const name = "name" in component ? String(component.name) : undefined;
      return !isFormPseudoElement(component.kind, name) || FORM_CONTROLS.some((control) => page.elements.has(control));
    }
    if (component.type !== "pseudo-class" || component.kind === "not") return true;
    if (!("selectors" in component) || !Array.isArray(component.selectors)) return true;
    const alternatives = component.selectors as Selector[];
    return alternatives.length === 0 || alternatives.some((alternative) => canMatch(alternative, page));
  });
}

/** Whether one of a rule's selectors (its prelude, as written) can match; a prelude lightningcss cannot read stays. */
function ruleCanMatch(prelude: string, page: PageVocabulary): boolean {
  let selectors: Selector[] | undefined;
  try {
    transform({
      filename: "rule.css",
      code: Buffer.from(`${prelude}{}`),
      visitor: {
        Rule: {
          style(rule) {
            selectors ??= rule.value.selectors;
          },
        },
      },
    });
  } catch {
    return true;
  }
  return selectors === undefined || selectors.some((selector) => canMatch(selector, page));
}

/** A piece of a stylesheet: a statement (`@layer a,b;`, a comment) or a block (`prelude{body}`). */
type Piece = { kind: "statement"; text: string } | { kind: "block"; prelude: string; body: string };

/** Where the string, comment or escape starting at `index` ends (the index after it); `index` itself when none starts there. */
function skipAtom(css: string, index: number): number {
  const char = css[index];
  if (char === "\\") return index + 2;
  if (char === "/" && css[index + 1] === "*") {
    const end = css.indexOf("*/", index + 2);
    if (end < 0) throw new Error("unterminated comment in the stylesheet");
    return end + 2;
  }
  if (char === '"' || char === "'") {
    let at = index + 1;
    while (at < css.length && css[at] !== char) at += css[at] === "\\" ? 2 : 1;
    if (at >= css.length) throw new Error("unterminated string in the stylesheet");
    return at + 1;
  }
  return index;
}

/** Splits a list of rules into its top-level pieces. */
function pieces(css: string): Piece[] {
  const result: Piece[] = [];
  let start = 0;
  let index = 0;
  let parens = 0;
  while (index < css.length) {
    if (css.startsWith("/*", index) && parens === 0 && css.slice(start, index).trim() === "") {
      const end = skipAtom(css, index);
      result.push({ kind: "statement", text: css.slice(index, end) });
      start = index = end;
      continue;
    }
    const skipped = skipAtom(css, index);
    if (skipped !== index) {
      index = skipped;
      continue;
    }
    const char = css[index];
    if (char === "(") parens += 1;
    else if (char === ")") parens -= 1;
    else if (char === ";" && parens === 0) {
      result.push({ kind: "statement", text: css.slice(start, index + 1) });
      start = index + 1;
    } else if (char === "{" && parens === 0) {
      let depth = 1;
      let at = index + 1;
      while (depth > 0) {
        if (at >= css.length) throw new Error("unbalanced braces in the stylesheet");
        const next = skipAtom(css, at);
        if (next !== at) {
          at = next;
          continue;
        }
        if (css[at] === "{") depth += 1;
        else if (css[at] === "}") depth -= 1;
        at += 1;
      }
      result.push({ kind: "block", prelude: css.slice(start, index), body: css.slice(index + 1, at - 1) });
      start = index = at;
      continue;
    }
    index += 1;
  }
  if (css.slice(start).trim() !== "") result.push({ kind: "statement", text: css.slice(start) });
  return result;
}

/** Splits a declaration block at its top-level semicolons. */
function declarations(body: string): string[] {
  const result: string[] = [];
  let start = 0;
  let parens = 0;
  for (let index = 0; index < body.length;) {
    const skipped = skipAtom(body, index);
    if (skipped !== index) {
      index = skipped;
      continue;
    }
    const char = body[index];
    if (char === "(") parens += 1;
    else if (char === ")") parens -= 1;
    else if (char === ";" && parens === 0) {
      result.push(body.slice(start, index));
      start = index + 1;
    }
    index += 1;
  }
  if (body.slice(start).trim() !== "") result.push(body.slice(start));
  return result;
}

/** At-rules whose body is a list of rules (the rest, @keyframes and @property, hold declarations or frames). */
const GROUPING_AT_RULE = /^@(media|supports|layer|container|scope|starting-style)\b/;

/** The custom property a declaration sets, if it sets one. */
const customProperty = (declaration: string) => /^\s*(--[\w-]+)\s*:/.exec(declaration)?.[1];

/** `css` keeping what `keep` says of each style rule and custom property, and dropping what is left empty. */
function filter(css: string, keepRule: (prelude: string) => boolean, keepProperty: (name: string) => boolean): string {
  return pieces(css)
    .map((piece) => {
      if (piece.kind === "statement") return piece.text;
      const prelude = piece.prelude.trim();
      if (GROUPING_AT_RULE.test(prelude)) {
        const body = filter(piece.body, keepRule, keepProperty);
        return body === "" ? "" : `${piece.prelude}{${body}}`;
      }
      if (prelude.startsWith("@property"))
        return keepProperty(prelude.slice("@property".length).trim()) ? `${piece.prelude}{${piece.body}}` : "";
      if (prelude.startsWith("@")) return `${piece.prelude}{${piece.body}}`;
      if (!keepRule(prelude)) return "";
      const kept = declarations(piece.body).filter((declaration) => {
        const name = customProperty(declaration);
        return name === undefined || keepProperty(name);
      });
      return kept.length === 0 ? "" : `${piece.prelude}{${kept.join(";")}}`;
    })
    .join("");
}

/** The custom properties `text` reads with var(). */
const readProperties = (text: string) => new Set([...text.matchAll(/var\(\s*(--[\w-]+)/g)].map((match) => match[1]!));

/**
 * The rules of `css` (the client's built, minified stylesheet) that pages with this vocabulary can
 * use. `html` is searched for var() in style attributes, whose custom properties stay.
 */
export function pageCss(css: string, page: PageVocabulary, html: readonly string[] = []): string {
  const decided = new Map<string, boolean>();
  const keepRule = (prelude: string) => {
    let keep = decided.get(prelude);
    if (keep === undefined) decided.set(prelude, (keep = ruleCanMatch(prelude, page)));
    return keep;
  };
  let result = filter(css, keepRule, () => true);
  const fromHtml = readProperties(html.join(""));
  // Removing one property can leave another unread (--default-font-family reads --font-sans): until nothing changes.
  for (;;) {
    const read = new Set([...readProperties(result), ...fromHtml]);
    const next = filter(
      result,
      () => true,
      (name) => read.has(name),
    );
    if (next === result) return result;
    result = next;
  }
}
