/** What the upload pages ask before a file goes up: what it shows, which room, which project. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { projectNameSchema } from "../../../shared/render";
import { INPUT_MODES, ROOM_TYPES, type InputMode, type RoomType } from "../../../shared/styles";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { labelClass, selectClass } from "../ui/buttons";

/**
 * Room photo or floor plan. With an engine that makes nothing of a plan (planNone: the Preview
 * engine), choosing "Floor plan" says at once that a plan is not rendered here and costs nothing.
 */
export function ModeChoice({
  value,
  onChange,
  disabled,
  planNone = false,
}: {
  value: InputMode;
  onChange(mode: InputMode): void;
  disabled?: boolean;
  planNone?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset disabled={disabled}>
      <legend className={labelClass}>{t("upload.modeLabel")}</legend>
      <div className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
        {INPUT_MODES.map((mode) => (
          <label
            key={mode}
            className="cursor-pointer rounded-md px-3 py-2 text-center text-sm font-medium text-slate-600 has-[:checked]:bg-white has-[:checked]:text-slate-900 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 dark:text-slate-300 dark:has-[:checked]:bg-slate-950 dark:has-[:checked]:text-white"
          >
            <input
              type="radio"
              name="input-mode"
              value={mode}
              checked={value === mode}
              onChange={() => onChange(mode)}
              className="sr-only"
            />
            {t(`inputModes.${mode}`)}
          </label>
        ))}
      </div>
      {planNone && value === "floor-plan" ? (
        <p className="mt-2 text-sm text-amber-800 dark:text-amber-200" role="status" data-testid="plan-none-note">
          {t("upload.planNone")}
        </p>
      ) : null}
    </fieldset>
  );
}

export function RoomTypeSelect({ value, onChange, disabled }: { value: RoomType; onChange(room: RoomType): void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <div>
      <label htmlFor="room-type" className={labelClass}>
        {t("upload.roomTypeLabel")}
      </label>
      <select
        id="room-type"
        className={selectClass}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as RoomType)}
      >
        {ROOM_TYPES.map((room) => (
          <option key={room} value={room}>
            {t(`roomTypes.${room}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export const NEW_PROJECT = "__new__";

/**
 * The project an upload goes into (signed-in users): their projects, most recently used first
 * and chosen by default, or a new one named here.
 */
export function useProjectChoice(enabled: boolean, preferred?: string | null) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  // The most recently used projects (the server pages them; a studio with more picks among these or makes a new one).
  const list = trpc.projects.list.useQuery({ limit: 100 }, { enabled });
  const create = trpc.projects.create.useMutation();
  const projects = list.data?.projects ?? [];
  const [choice, setChoice] = useState<string | null>(null);
  const [newName, setNewName] = useState("");
  const [nameError, setNameError] = useState<string>();

  const fallback = preferred && projects.some((project) => project.id === preferred) ? preferred : (projects[0]?.id ?? NEW_PROJECT);
  const value = choice ?? fallback;

  /** The chosen project's id, creating the new one first; undefined when the name is refused. */
  const resolve = async (): Promise<string | undefined> => {
    if (value !== NEW_PROJECT) return value;
    const parsed = projectNameSchema.safeParse(newName.trim() ? newName : t("upload.defaultProjectName"));
    if (!parsed.success) {
      setNameError(friendlyError(parsed.error.issues[0]!.message, t));
      return undefined;
    }
    setNameError(undefined);
    const project = await create.mutateAsync({ name: parsed.data });
    setChoice(project.id);
    setNewName("");
    await utils.projects.list.invalidate();
    return project.id;
  };

  return { projects, isLoading: list.isLoading, value, setValue: setChoice, newName, setNewName, nameError, resolve };
}

export function ProjectSelect({ choice, disabled }: { choice: ReturnType<typeof useProjectChoice>; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <div>
        <label htmlFor="project" className={labelClass}>
          {t("upload.projectLabel")}
        </label>
        <select
          id="project"
          className={selectClass}
          value={choice.value}
          disabled={disabled || choice.isLoading}
          onChange={(event) => choice.setValue(event.target.value)}
        >
          {choice.projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
          <option value={NEW_PROJECT}>{t("upload.newProjectOption")}</option>
        </select>
      </div>
      {choice.value === NEW_PROJECT ? (
        <div>
          <label htmlFor="new-project-name" className={labelClass}>
            {t("upload.newProjectName")}
          </label>
          <input
            id="new-project-name"
            className={inputClass}
            value={choice.newName}
            placeholder={t("upload.defaultProjectName")}
            disabled={disabled}
            aria-invalid={choice.nameError ? true : undefined}
            aria-describedby={choice.nameError ? "new-project-name-error" : undefined}
            onChange={(event) => choice.setNewName(event.target.value)}
          />
          {choice.nameError ? (
            <p id="new-project-name-error" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
              {choice.nameError}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
