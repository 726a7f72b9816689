/**
 * Measures made in AR on a phone (decision 092): two points the phone's hit test found on the floor or a
 * wall, in metres; the server computes the length from them (no length sent by a browser is stored) and
 * keeps it with the project, for whoever may work in the project (its creator, or any member of its team).
 */
import { generateSecureRandomString } from "../auth/tokens";
import { lockName } from "../db/locking";
import { DomainError, notFound } from "../errors";
import type { Owner } from "../render";
import { arLengthCm, MEASURE, type ArMeasureView, type ArPoint } from "../../shared/measures";
import type { MeasuresContext } from "./context";

export interface NewArMeasure {
  a: ArPoint;
  b: ArPoint;
  label: string;
}

/** The project's id when the caller may work in it; else not-found (a visitor has no projects). */
async function projectOf(deps: MeasuresContext, owner: Owner, projectId: string): Promise<string> {
  if (owner.userId === null || !(await deps.projects.mayWorkIn(owner.userId, projectId))) throw notFound();
  return projectId;
}

/** A project's AR measures, oldest first, without an access check (the caller's module checked it). */
export async function arMeasuresOf(deps: Pick<MeasuresContext, "db">, projectId: string): Promise<ArMeasureView[]> {
  const rows = await deps.db
    .selectFrom("room_measures")
    .select(["id", "label", "length_cm", "created_at"])
    .where("project_id", "=", projectId)
    .where("source", "=", "ar")
    .orderBy("created_at")
    .orderBy("id")
    .limit(MEASURE.perProjectArMax)
    .execute();
  return rows.map((row) => ({ id: row.id, label: row.label, lengthCm: Number(row.length_cm), createdAt: row.created_at }));
}

export async function arMeasuresOfProject(deps: MeasuresContext, owner: Owner, projectId: string): Promise<ArMeasureView[]> {
  return arMeasuresOf(deps, await projectOf(deps, owner, projectId));
}

export async function addArMeasure(deps: MeasuresContext, owner: Owner, projectId: string, input: NewArMeasure): Promise<ArMeasureView[]> {
  const project = await projectOf(deps, owner, projectId);
  const lengthCm = arLengthCm(input.a, input.b);
  if (!(lengthCm >= MEASURE.arMinCm && lengthCm <= MEASURE.arMaxCm)) throw new DomainError("invalid", "arMeasureOutOfRange");
  await deps.db.transaction().execute(async (trx) => {
    // Counted and written under one lock per project (decision 080): two saves at once never pass the limit.
    await lockName(trx, `room_measures:ar:${project}`);
    const { n } = await trx
      .selectFrom("room_measures")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("project_id", "=", project)
      .where("source", "=", "ar")
      .executeTakeFirstOrThrow();
    if (Number(n) >= MEASURE.perProjectArMax) throw new DomainError("invalid", "tooManyArMeasures");
    await trx
      .insertInto("room_measures")
      .values({
        id: generateSecureRandomString(),
        project_id: project,
        upload_id: null,
        source: "ar",
        kind: "distance",
        points: JSON.stringify({ a: input.a, b: input.b }),
        length_cm: lengthCm,
        label: input.label,
        created_by: owner.userId,
        created_at: deps.clock.now(),
      })
      .execute();
  });
  return arMeasuresOf(deps, project);
}

export async function deleteArMeasure(deps: MeasuresContext, owner: Owner, projectId: string, measureId: string): Promise<ArMeasureView[]> {
  const project = await projectOf(deps, owner, projectId);
  const removed = await deps.db
    .deleteFrom("room_measures")
    .where("id", "=", measureId)
    .where("project_id", "=", project)
    .where("source", "=", "ar")
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound();
  return arMeasuresOf(deps, project);
}
