/**
 * The styles module (issue 32, decision 100): styles of a space's own beside the built-in ones, with
 * their reference pictures. It owns the table custom_styles; it asks the spaces module a caller's
 * role in a team through a port boot.ts hands in. Routers, the reference picture's route and (through
 * a port) the render module call this surface only; every function takes the acting user and checks
 * on the server what they may see and change.
 */
import type { CustomStyleInput, CustomStyleView, SpaceStyles, StyleSnapshot } from "../../shared/custom-styles";
import type { Infra } from "../infra";
import type { StyleOwner, StyleSpaces, StylesContext } from "./context";
import {
  createStyle,
  deleteStyle,
  exportPack,
  copyOfStyle,
  importPack,
  insertStyles,
  overwriteStyle,
  getStyle,
  listStyles,
  referencePicture,
  removeReference,
  resolveStyle,
  setReference,
  updateStyle,
  type ResolvedStyle,
  type StyleCopy,
} from "./styles";

export type { StyleOwner, StyleSpaces } from "./context";
export type { ResolvedStyle, StyleCopy } from "./styles";

/** What a render keeps of the style it used (the style may change or go later). */
export function snapshotOf(view: CustomStyleView, referenceUsed: boolean): StyleSnapshot {
  const { id, name, description, avoid, palette, tone } = view;
  return { id, name, description, avoid, palette: [...palette], tone, referenceUsed };
}

export function createStylesModule(infra: Pick<Infra, "db" | "clock">, ports: { spaces: StyleSpaces }) {
  const deps: StylesContext = { db: infra.db, clock: infra.clock, spaces: ports.spaces };
  return {
    /** The space's styles, newest change first: the caller's personal ones (teamId null), or a team's for any member. */
    list: (userId: string, teamId: string | null): Promise<SpaceStyles> => listStyles(deps, { userId, teamId }),
    /** One style of a space of the caller's (404 otherwise). */
    get: (userId: string, styleId: string): Promise<CustomStyleView> => getStyle(deps, userId, styleId),
    /**
     * A new style in the caller's personal space (teamId null) or a team's (right manageStyles: Owner,
     * Admin); at most CUSTOM_STYLES.perSpaceMax per space (409 tooManyCustomStyles). `input` has been
     * through customStyleInputSchema.
     */
    create: (userId: string, teamId: string | null, input: CustomStyleInput): Promise<CustomStyleView> =>
      createStyle(deps, { userId, teamId }, input),
    /** Replaces the style's fields (who may change it: its keeper, a team's Owner and Admins; 403 for a Member). */
    update: (userId: string, styleId: string, input: CustomStyleInput): Promise<CustomStyleView> =>
      updateStyle(deps, userId, styleId, input),
    delete: (userId: string, styleId: string): Promise<void> => deleteStyle(deps, userId, styleId),
    /** Checks and keeps a reference picture (JPEG or PNG bytes), replacing any; refusals say customStyleReferenceInvalid. */
    setReference: (userId: string, styleId: string, bytes: Buffer): Promise<CustomStyleView> => setReference(deps, userId, styleId, bytes),
    removeReference: (userId: string, styleId: string): Promise<CustomStyleView> => removeReference(deps, userId, styleId),
    /** The kept reference picture (a JPEG), for whoever may see the style; 404 when it has none. */
    referencePicture: (userId: string, styleId: string) => referencePicture(deps, userId, styleId),
    /** The space's styles (all, or those named) as a style pack file (decision 104); any member may export. */
    exportPack: (userId: string, teamId: string | null, styleIds: string[] | null): Promise<Buffer> =>
      exportPack(deps, { userId, teamId }, styleIds),
    /**
     * Imports a style pack file into the space, all or nothing (right manageStyles; room for every
     * style in it). A hostile or broken file is refused with a stylePack* message (400, 413 for sizes).
     */
    importPack: (userId: string, teamId: string | null, pack: Buffer): Promise<CustomStyleView[]> =>
      importPack(deps, { userId, teamId }, pack),
    /**
     * For the marketplace (through a port): copies kept as new styles of the space, all or nothing within
     * its 50 (right manageStyles), and a copy's content written over one of the space's styles.
     */
    copyOf: (owner: StyleOwner, styleId: string): Promise<StyleCopy> => copyOfStyle(deps, owner, styleId),
    insertCopies: (userId: string, teamId: string | null, copies: StyleCopy[]): Promise<CustomStyleView[]> =>
      insertStyles(deps, { userId, teamId }, copies),
    overwrite: (userId: string, styleId: string, copy: StyleCopy): Promise<CustomStyleView> => overwriteStyle(deps, userId, styleId, copy),
    /**
     * For the render module (through a port): the style of the space the render is ordered in, with its
     * reference picture. A style of any other space, or none: not found (customStyleNotFound).
     */
    resolve: (owner: StyleOwner, styleId: string): Promise<ResolvedStyle> => resolveStyle(deps, owner, styleId),
  };
}

export type StylesModule = ReturnType<typeof createStylesModule>;
