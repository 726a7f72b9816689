/** A photo's reference and measures: read, set, added and deleted by whoever may use the photo. */
import { generateSecureRandomString } from "../auth/tokens";
import { lockName } from "../db/locking";
import { DomainError, notFound } from "../errors";
import type { Owner } from "../render";
import {
  accuracyPercent,
  MEASURE,
  measure,
  measureReferenceSchema,
  measurePointSchema,
  SUPPORTED_MEASURES,
  type MeasureKind,
  type MeasureReference,
  type MeasureView,
  type PhotoMeasures,
  type Point,
} from "../../shared/measures";
import type { RoomMeasure } from "../db/schema";
import type { MeasuresContext } from "./context";

export interface NewMeasure {
  kind: MeasureKind;
  a: Point;
  b: Point;
  label: string;
}

const problemMessage = {
  notARectangle: "measureReferenceUnusable",
  notUpright: "measureReferenceUnusable",
  noCamera: "measureReferenceUnusable",
  unsupported: "measureUnsupported",
  offTheFloor: "measureOffTheFloor",
} as const;

function readReference(text: string | undefined): MeasureReference | null {
  if (!text) return null;
  const parsed = measureReferenceSchema.safeParse(JSON.parse(text));
  return parsed.success ? (parsed.data as MeasureReference) : null;
}

function readPoints(text: string): { a: Point; b: Point } | null {
  const value = JSON.parse(text) as { a?: unknown; b?: unknown };
  const a = measurePointSchema.safeParse(value.a);
  const b = measurePointSchema.safeParse(value.b);
  return a.success && b.success ? { a: a.data, b: b.data } : null;
}

function view(row: RoomMeasure, reference: MeasureReference | null, frame: { width: number; height: number }): MeasureView | null {
  const points = readPoints(row.points);
  if (!points) return null;
  const kind = row.kind as MeasureKind;
  let lengthCm = row.length_cm;
  let withinPercent: number | null = null;
  if (row.source === "photo" && reference) {
    const result = measure(reference, frame, kind, points.a, points.b);
    lengthCm = "cm" in result ? Math.round(result.cm * 10) / 10 : null;
    withinPercent = "cm" in result ? accuracyPercent(reference.kind, kind) : null;
  }
  return { id: row.id, source: row.source, kind, ...points, label: row.label, lengthCm, withinPercent, createdAt: row.created_at };
}

async function read(deps: MeasuresContext, photo: { uploadId: string; width: number; height: number }): Promise<PhotoMeasures> {
  const [referenceRow, rows] = await Promise.all([
    deps.db.selectFrom("measure_references").select("reference").where("upload_id", "=", photo.uploadId).executeTakeFirst(),
    deps.db
      .selectFrom("room_measures")
      .selectAll()
      .where("upload_id", "=", photo.uploadId)
      .orderBy("created_at")
      .orderBy("id")
      .limit(MEASURE.perPhotoMax)
      .execute(),
  ]);
  const reference = readReference(referenceRow?.reference);
  return {
    ...photo,
    reference,
    measures: rows.flatMap((row) => view(row, reference, photo) ?? []),
  };
}

export async function measuresOfPhoto(deps: MeasuresContext, owner: Owner, uploadId: string): Promise<PhotoMeasures> {
  const photo = await deps.photos.upload(owner, uploadId);
  return read(deps, { uploadId: photo.id, width: photo.width, height: photo.height });
}

export async function measuresOfPhotos(
  deps: MeasuresContext,
  photos: ReadonlyArray<{ uploadId: string; width: number; height: number }>,
): Promise<PhotoMeasures[]> {
  const unique = [...new Map(photos.map((photo) => [photo.uploadId, photo])).values()];
  return Promise.all(unique.map((photo) => read(deps, photo)));
}

export async function setReference(
  deps: MeasuresContext,
  owner: Owner,
  uploadId: string,
  reference: MeasureReference | null,
): Promise<PhotoMeasures> {
  const photo = await deps.photos.upload(owner, uploadId);
  if (reference === null) {
    await deps.db.deleteFrom("measure_references").where("upload_id", "=", photo.id).execute();
  } else {
    // A reference that fits no camera measures nothing: refused with what to do.
    const probe = measure(reference, photo, SUPPORTED_MEASURES[reference.kind][0]!, { x: 0.5, y: 0.99 }, { x: 0.5, y: 0.98 });
    if ("problem" in probe && probe.problem !== "offTheFloor") throw new DomainError("invalid", problemMessage[probe.problem]);
    const values = { reference: JSON.stringify(reference), updated_by: owner.userId, updated_at: deps.clock.now() };
    await deps.db
      .insertInto("measure_references")
      .values({ upload_id: photo.id, ...values })
      .onConflict((conflict) => conflict.column("upload_id").doUpdateSet(values))
      .execute();
  }
  return read(deps, { uploadId: photo.id, width: photo.width, height: photo.height });
}

export async function addMeasure(deps: MeasuresContext, owner: Owner, uploadId: string, input: NewMeasure): Promise<PhotoMeasures> {
  const photo = await deps.photos.upload(owner, uploadId);
  const frame = { uploadId: photo.id, width: photo.width, height: photo.height };
  await deps.db.transaction().execute(async (trx) => {
    // Counted and written under one lock per photo (decision 080): two saves at once never pass the limit.
    await lockName(trx, `room_measures:${photo.id}`);
    const referenceRow = await trx
      .selectFrom("measure_references")
      .select("reference")
      .where("upload_id", "=", photo.id)
      .executeTakeFirst();
    const reference = readReference(referenceRow?.reference);
    if (!reference) throw new DomainError("invalid", "measureNeedsReference");
    const result = measure(reference, photo, input.kind, input.a, input.b);
    if ("problem" in result) throw new DomainError("invalid", problemMessage[result.problem]);
    const { n } = await trx
      .selectFrom("room_measures")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("upload_id", "=", photo.id)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MEASURE.perPhotoMax) throw new DomainError("invalid", "tooManyMeasures");
    await trx
      .insertInto("room_measures")
      .values({
        id: generateSecureRandomString(),
        project_id: photo.projectId,
        upload_id: photo.id,
        source: "photo",
        kind: input.kind,
        points: JSON.stringify({ a: input.a, b: input.b }),
        length_cm: null,
        label: input.label,
        created_by: owner.userId,
        created_at: deps.clock.now(),
      })
      .execute();
  });
  return read(deps, frame);
}

export async function deleteMeasure(deps: MeasuresContext, owner: Owner, uploadId: string, measureId: string): Promise<PhotoMeasures> {
  const photo = await deps.photos.upload(owner, uploadId);
  const removed = await deps.db
    .deleteFrom("room_measures")
    .where("id", "=", measureId)
    .where("upload_id", "=", photo.id)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound();
  return read(deps, { uploadId: photo.id, width: photo.width, height: photo.height });
}
