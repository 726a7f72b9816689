/**
 * Keeping custom styles (decision 100). A style is a team's (any member lists it and renders with
 * it; Owner and Admin, the right "manageStyles", make, change and delete it) or a personal space's
 * (its keeper alone). A style id of a space the caller is not in is not found, never forbidden: the
 * answer says nothing of whether it exists. The reference picture's bytes are read only where they
 * are used (referencePicture, resolve), never by lists.
 */
import type { ExpressionBuilder } from "kysely";
import {
  CUSTOM_STYLES,
  STYLE_TONES,
  customStyleIdSchema,
  type CustomStyleId,
  type CustomStyleInput,
  type CustomStyleView,
  type SpaceStyles,
  type StyleTone,
} from "../../shared/custom-styles";
import { roleMay } from "../../shared/teams";
import { generateSecureRandomString } from "../auth/tokens";
import { lockName } from "../db/locking";
import type { CustomStyle, Database } from "../db/schema";
import { DomainError, notFound } from "../errors";
import type { StyleOwner, StylesContext } from "./context";
import { readPack, writePack } from "./packs";
import { prepareReference } from "./reference";

/** Every column but the picture's bytes. */
const COLUMNS = [
  "id",
  "team_id",
  "user_id",
  "created_by",
  "name",
  "description",
  "avoid",
  "palette",
  "tone",
  "reference_width",
  "reference_height",
  "created_at",
  "updated_at",
] as const;

type StyleRow = Omit<CustomStyle, "reference">;

export const styleNotFound = () => new DomainError("not-found", "customStyleNotFound");

const inSpace = (owner: StyleOwner) => (eb: ExpressionBuilder<Database, "custom_styles">) =>
  owner.teamId === null ? eb.and([eb("team_id", "is", null), eb("user_id", "=", owner.userId)]) : eb("team_id", "=", owner.teamId);

function paletteOf(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((colour): colour is string => typeof colour === "string") : [];
  } catch {
    return [];
  }
}

const toneOf = (tone: string): StyleTone => ((STYLE_TONES as readonly string[]).includes(tone) ? (tone as StyleTone) : "neutral");

export function styleView(row: StyleRow): CustomStyleView {
  return {
    id: row.id as CustomStyleId,
    name: row.name,
    description: row.description,
    avoid: row.avoid,
    palette: paletteOf(row.palette),
    tone: toneOf(row.tone),
    teamId: row.team_id,
    hasReference: row.reference_width !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Lets the caller into the space: their own personal space always; a team when they are a member
 * (else 404), and, with `right`, when their role carries it (else 403).
 */
async function enterSpace(deps: StylesContext, owner: StyleOwner, right?: "manageStyles"): Promise<{ mayManage: boolean }> {
  if (owner.teamId === null) return { mayManage: true };
  const role = await deps.spaces.roleIn(owner.userId, owner.teamId);
  if (role === null) throw notFound();
  if (right && !roleMay(role, right)) throw new DomainError("forbidden", "teamRightMissing");
  return { mayManage: roleMay(role, "manageStyles") };
}

/** The style when its space is one of the caller's (404 otherwise), and, with `right`, theirs to change (403 for a Member). */
async function styleFor(deps: StylesContext, userId: string, styleId: string, right?: "manageStyles"): Promise<StyleRow> {
  if (!customStyleIdSchema.safeParse(styleId).success) throw styleNotFound();
  const row = await deps.db.selectFrom("custom_styles").select(COLUMNS).where("id", "=", styleId).executeTakeFirst();
  if (!row) throw styleNotFound();
  if (row.team_id === null) {
    if (row.user_id !== userId) throw styleNotFound();
    return row;
  }
  const role = await deps.spaces.roleIn(userId, row.team_id);
  if (role === null) throw styleNotFound();
  if (right && !roleMay(role, right)) throw new DomainError("forbidden", "teamRightMissing");
  return row;
}

/** The space's styles, the newest change first, and whether the caller may change them. */
export async function listStyles(deps: StylesContext, owner: StyleOwner): Promise<SpaceStyles> {
  const { mayManage } = await enterSpace(deps, owner);
  const rows = await deps.db
    .selectFrom("custom_styles")
    .select(COLUMNS)
    .where(inSpace(owner))
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return { teamId: owner.teamId, canManage: mayManage, styles: rows.map(styleView) };
}

export async function getStyle(deps: StylesContext, userId: string, styleId: string): Promise<CustomStyleView> {
  return styleView(await styleFor(deps, userId, styleId));
}

const lockOf = (owner: StyleOwner) => `custom_styles:${owner.teamId === null ? `u:${owner.userId}` : `t:${owner.teamId}`}`;

async function countIn(db: StylesContext["db"], owner: StyleOwner): Promise<number> {
  const { count } = await db
    .selectFrom("custom_styles")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where(inSpace(owner))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * A new style in the space (the caller's personal one, or a team's for its Owner and Admins). The
 * space's count is taken in the insert's transaction, under a lock named for the space on
 * PostgreSQL (decision 080), so that racing creations never pass CUSTOM_STYLES.perSpaceMax.
 */
export async function createStyle(deps: StylesContext, owner: StyleOwner, input: CustomStyleInput): Promise<CustomStyleView> {
  await enterSpace(deps, owner, "manageStyles");
  const now = deps.clock.now();
  const row: CustomStyle = {
    id: `${CUSTOM_STYLES.idPrefix}${generateSecureRandomString()}`,
    team_id: owner.teamId,
    user_id: owner.teamId === null ? owner.userId : null,
    created_by: owner.userId,
    name: input.name,
    description: input.description,
    avoid: input.avoid,
    palette: JSON.stringify(input.palette),
    tone: input.tone,
    reference: null,
    reference_width: null,
    reference_height: null,
    created_at: now,
    updated_at: now,
  };
  await deps.db.transaction().execute(async (trx) => {
    await lockName(trx, lockOf(owner));
    if ((await countIn(trx, owner)) >= CUSTOM_STYLES.perSpaceMax) throw new DomainError("conflict", "tooManyCustomStyles");
    await trx.insertInto("custom_styles").values(row).execute();
  });
  if (owner.teamId !== null) await deps.spaces.record(owner.teamId, owner.userId, "styleAdded", { name: row.name });
  return styleView(row);
}

export async function updateStyle(deps: StylesContext, userId: string, styleId: string, input: CustomStyleInput): Promise<CustomStyleView> {
  const style = await styleFor(deps, userId, styleId, "manageStyles");
  const change = {
    name: input.name,
    description: input.description,
    avoid: input.avoid,
    palette: JSON.stringify(input.palette),
    tone: input.tone,
    updated_at: deps.clock.now(),
  };
  await deps.db.updateTable("custom_styles").set(change).where("id", "=", style.id).execute();
  await recordChange(deps, style, userId, "styleChanged", change.name);
  return styleView({ ...style, ...change });
}

export async function deleteStyle(deps: StylesContext, userId: string, styleId: string): Promise<void> {
  const style = await styleFor(deps, userId, styleId, "manageStyles");
  await deps.db.deleteFrom("custom_styles").where("id", "=", style.id).execute();
  await recordChange(deps, style, userId, "styleRemoved", style.name);
}

/** A team's style changed: its log says who did what to which style (a personal space keeps no log). */
async function recordChange(deps: StylesContext, style: StyleRow, userId: string, action: "styleChanged" | "styleRemoved", name: string) {
  if (style.team_id !== null) await deps.spaces.record(style.team_id, userId, action, { name });
}

/** Checks and keeps the reference picture (replacing any), as a metadata-free JPEG; refusals say customStyleReferenceInvalid. */
export async function setReference(deps: StylesContext, userId: string, styleId: string, bytes: Buffer): Promise<CustomStyleView> {
  // Rights first: a caller who may not change the style costs no decoding.
  await styleFor(deps, userId, styleId, "manageStyles");
  if (bytes.length > CUSTOM_STYLES.referenceMaxBytes) throw new DomainError("too-large", "customStyleReferenceInvalid");
  const prepared = await prepareReference(bytes);
  if (!prepared.ok) throw new DomainError("invalid", "customStyleReferenceInvalid");
  // Read again after the decoding: the style may have gone, or the caller's role changed, meanwhile.
  const style = await styleFor(deps, userId, styleId, "manageStyles");
  const change = {
    reference: prepared.data,
    reference_width: prepared.width,
    reference_height: prepared.height,
    updated_at: deps.clock.now(),
  };
  await deps.db.updateTable("custom_styles").set(change).where("id", "=", style.id).execute();
  await recordChange(deps, style, userId, "styleChanged", style.name);
  return styleView({ ...style, ...change });
}

export async function removeReference(deps: StylesContext, userId: string, styleId: string): Promise<CustomStyleView> {
  const style = await styleFor(deps, userId, styleId, "manageStyles");
  if (style.reference_width === null) return styleView(style);
  const change = { reference: null, reference_width: null, reference_height: null, updated_at: deps.clock.now() };
  await deps.db.updateTable("custom_styles").set(change).where("id", "=", style.id).execute();
  await recordChange(deps, style, userId, "styleChanged", style.name);
  return styleView({ ...style, ...change });
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The reference picture (JPEG) for whoever may see the style; 404 when it has none. */
export async function referencePicture(
  deps: StylesContext,
  userId: string,
  styleId: string,
): Promise<{ data: Buffer; width: number; height: number; updatedAt: number }> {
  const style = await styleFor(deps, userId, styleId);
  const row = await deps.db.selectFrom("custom_styles").select("reference").where("id", "=", style.id).executeTakeFirst();
  if (!row?.reference || style.reference_width === null || style.reference_height === null) throw notFound();
  return { data: asBuffer(row.reference), width: style.reference_width, height: style.reference_height, updatedAt: style.updated_at };
}

/** A style as the render module uses it: its content and its reference picture (null: none). */
export interface ResolvedStyle {
  view: CustomStyleView;
  reference: Buffer | null;
}

/**
 * The style of the space a render is ordered in (a team's: any member; a personal one: its keeper).
 * A style of any other space is not found, exactly as one that does not exist.
 */
export async function resolveStyle(deps: StylesContext, owner: StyleOwner, styleId: string): Promise<ResolvedStyle> {
  if (!customStyleIdSchema.safeParse(styleId).success) throw styleNotFound();
  const row = await deps.db.selectFrom("custom_styles").selectAll().where("id", "=", styleId).where(inSpace(owner)).executeTakeFirst();
  if (!row) throw styleNotFound();
  if (owner.teamId !== null && (await deps.spaces.roleIn(owner.userId, owner.teamId)) === null) throw styleNotFound();
  const { reference, ...rest } = row;
  return { view: styleView(rest), reference: reference ? asBuffer(reference) : null };
}

/**
 * The space's styles as a pack file (decision 104): all of them, or those named (each must be of the
 * space: 404 otherwise). Any member of a team may export its styles, as they may read them.
 */
export async function exportPack(deps: StylesContext, owner: StyleOwner, styleIds: string[] | null): Promise<Buffer> {
  await enterSpace(deps, owner);
  for (const id of styleIds ?? []) if (!customStyleIdSchema.safeParse(id).success) throw styleNotFound();
  let query = deps.db.selectFrom("custom_styles").selectAll().where(inSpace(owner));
  if (styleIds) query = query.where("id", "in", styleIds.length > 0 ? styleIds : [""]);
  const rows = await query.orderBy("created_at", "asc").orderBy("id", "asc").execute();
  if (styleIds && new Set(styleIds).size !== rows.length) throw styleNotFound();
  const styles = rows.map((row) => {
    const view = styleView(row);
    return {
      input: { name: view.name, description: view.description, avoid: view.avoid, palette: view.palette, tone: view.tone },
      reference: row.reference ? asBuffer(row.reference) : null,
    };
  });
  return writePack(styles, new Date(deps.clock.now()));
}

/**
 * Imports a pack into the space (its keeper; a team's Owner and Admins), all or nothing: every style
 * is checked and every picture prepared before anything is kept, and the space's count is taken again
 * under its lock so that the pack and racing creations never pass CUSTOM_STYLES.perSpaceMax.
 */
export async function importPack(deps: StylesContext, owner: StyleOwner, pack: Buffer): Promise<CustomStyleView[]> {
  // Rights first: a caller who may not add styles here costs no unpacking.
  await enterSpace(deps, owner, "manageStyles");
  const styles = await readPack(pack, CUSTOM_STYLES.perSpaceMax - (await countIn(deps.db, owner)));
  // Checked again after the decoding (in insertStyles): the caller's role may have changed meanwhile.
  return insertStyles(deps, owner, styles);
}

/** A style to keep as it is: fields checked, picture already prepared (a pack's, or the marketplace's copy). */
export interface StyleCopy {
  input: CustomStyleInput;
  reference: { data: Buffer; width: number; height: number } | null;
}

/**
 * New styles in the space, all or nothing (right manageStyles): the space's count is taken under its
 * lock, and a set that would pass CUSTOM_STYLES.perSpaceMax is refused whole (stylePackNoRoom).
 */
export async function insertStyles(deps: StylesContext, owner: StyleOwner, styles: StyleCopy[]): Promise<CustomStyleView[]> {
  await enterSpace(deps, owner, "manageStyles");
  const now = deps.clock.now();
  const rows: CustomStyle[] = styles.map(({ input, reference }) => ({
    id: `${CUSTOM_STYLES.idPrefix}${generateSecureRandomString()}`,
    team_id: owner.teamId,
    user_id: owner.teamId === null ? owner.userId : null,
    created_by: owner.userId,
    name: input.name,
    description: input.description,
    avoid: input.avoid,
    palette: JSON.stringify(input.palette),
    tone: input.tone,
    reference: reference?.data ?? null,
    reference_width: reference?.width ?? null,
    reference_height: reference?.height ?? null,
    created_at: now,
    updated_at: now,
  }));
  await deps.db.transaction().execute(async (trx) => {
    await lockName(trx, lockOf(owner));
    const count = await countIn(trx, owner);
    if (count + rows.length > CUSTOM_STYLES.perSpaceMax) {
      throw new DomainError("conflict", "stylePackNoRoom", { params: { room: CUSTOM_STYLES.perSpaceMax - count, count: rows.length } });
    }
    for (const row of rows) await trx.insertInto("custom_styles").values(row).execute();
  });
  return rows.map(({ reference: _reference, ...row }) => styleView(row));
}

/** Replaces a style's fields and reference picture with a copy's (right manageStyles; 404 outside the caller's spaces). */
export async function overwriteStyle(deps: StylesContext, userId: string, styleId: string, copy: StyleCopy): Promise<CustomStyleView> {
  const style = await styleFor(deps, userId, styleId, "manageStyles");
  const change = {
    name: copy.input.name,
    description: copy.input.description,
    avoid: copy.input.avoid,
    palette: JSON.stringify(copy.input.palette),
    tone: copy.input.tone,
    reference: copy.reference?.data ?? null,
    reference_width: copy.reference?.width ?? null,
    reference_height: copy.reference?.height ?? null,
    updated_at: deps.clock.now(),
  };
  await deps.db.updateTable("custom_styles").set(change).where("id", "=", style.id).execute();
  const { reference: _reference, ...rest } = change;
  return styleView({ ...style, ...rest });
}

/** A style of exactly this space as a copy (its content and kept picture), for the marketplace's listings. */
export async function copyOfStyle(deps: StylesContext, owner: StyleOwner, styleId: string): Promise<StyleCopy> {
  const { view } = await resolveStyle(deps, owner, styleId);
  const row = await deps.db
    .selectFrom("custom_styles")
    .select(["reference", "reference_width", "reference_height"])
    .where("id", "=", view.id)
    .executeTakeFirst();
  const { name, description, avoid, palette, tone } = view;
  return {
    input: { name, description, avoid, palette, tone },
    reference:
      row?.reference && row.reference_width !== null && row.reference_height !== null
        ? { data: asBuffer(row.reference), width: row.reference_width, height: row.reference_height }
        : null,
  };
}
