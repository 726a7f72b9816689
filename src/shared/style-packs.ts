/**
 * Style packs (issue 32, decision 104): a space's custom styles as one file, to carry them to another
 * install. The format is documented in docs/style-pack-format.md: a zip holding manifest.json and the
 * reference pictures it names, under pictures/. Import checks every limit here before it keeps
 * anything, and refuses a hostile file with one of the stylePack* messages (src/shared/messages.ts).
 */
import { z } from "zod";
import { CUSTOM_STYLES, customStyleInputSchema } from "./custom-styles";

export const STYLE_PACKS = {
  /** What manifest.json's "format" says, and the version this server writes and reads. */
  format: "roomcanvas-style-pack",
  version: 1,
  /** The pack file itself, as uploaded. */
  maxBytes: 32 * 1024 * 1024,
  /** Styles in one pack: as many as one space may keep. */
  maxStyles: CUSTOM_STYLES.perSpaceMax,
  /** Files in the zip (read from its central directory before anything is unpacked): the manifest, a picture per style, and a pictures/ folder entry. */
  maxEntries: CUSTOM_STYLES.perSpaceMax + 2,
  /** manifest.json unpacked. */
  manifestMaxBytes: 256 * 1024,
  /** One picture unpacked: as large as a reference picture sent on its own. */
  pictureMaxBytes: CUSTOM_STYLES.referenceMaxBytes,
  /** Everything in the pack unpacked, counted while it is unpacked. */
  totalMaxBytes: 64 * 1024 * 1024,
  /** The manifest's own name in the zip. */
  manifestName: "manifest.json",
} as const;

/** Where a pack is exported (GET) and imported (POST, the zip as the raw body). */
export const stylePackPath = "/api/styles/pack";

/** A picture's name in a pack: pictures/ and a plain file name ending .jpg, .jpeg or .png. */
export const STYLE_PACK_PICTURE = /^pictures\/[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.(jpg|jpeg|png)$/;

/** One style of a pack's manifest: a style's fields (the same limits as made by hand) and its picture's name, if any. */
export const stylePackStyleSchema = customStyleInputSchema.extend({
  reference: z.string().regex(STYLE_PACK_PICTURE).nullable().default(null),
});

/** manifest.json's shape (the limits on its styles are customStyleInputSchema's). */
export const stylePackManifestSchema = z.object({
  format: z.literal(STYLE_PACKS.format),
  version: z.literal(STYLE_PACKS.version),
  styles: z.array(z.unknown()),
});
export type StylePackStyle = z.infer<typeof stylePackStyleSchema>;

/** The file name an exported pack is offered under. */
export const STYLE_PACK_FILE_NAME = "styles.roomcanvas-pack.zip";
