/**
 * "Apply to the whole project" (issue 30): the project's photos rendered in one style with one
 * seed, each with its room type, optionally following a finished render's look (engines that take
 * a reference picture). The price (one credit per photo) is shown before confirming; the server
 * charges the whole set in one transaction or nothing.
 */
import { Layers } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { CREDITS } from "../../../shared/constants";
import { renderModesFor, RENDER_MODES, type RenderMode } from "../../../shared/render";
import type { StyleKey } from "../../../shared/custom-styles";
import { DESIGN_STYLES, ROOM_TYPES, type RoomType } from "../../../shared/styles";
import { useEngine } from "../../hooks/useEngine";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { FormDialog } from "../ui/Dialog";
import { buttonClass, labelClass, selectClass } from "../ui/buttons";
import { styleLabel } from "../../lib/styleNames";

interface Choice {
  include: boolean;
  roomType: RoomType;
}

export function ApplyToProject({
  projectId,
  projectTeamId,
  renders,
}: {
  projectId: string;
  /** The team whose space holds the project (null: personal): whose own styles it may use. */
  projectTeamId: string | null;
  /** The project's renders: finished ones can be the reference. */
  renders: ReadonlyArray<{
    id: string;
    status: string;
    style: string | null;
    styleName?: string | null;
    thumb?: string | null;
    kind?: string;
  }>;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { engine } = useEngine();
  const utils = trpc.useUtils();
  const photos = trpc.render.projectPhotos.useQuery({ projectId }, { enabled: open, staleTime: 0 });
  const allowance = trpc.render.allowance.useQuery(undefined, { enabled: open, staleTime: 0 });
  const createSet = trpc.render.createSet.useMutation();
  const [style, setStyle] = useState<StyleKey>("modern");
  // The project's space's own styles may be applied too.
  const customStyles = trpc.styles.list.useQuery({ teamId: projectTeamId }, { enabled: open, retry: false });
  const [mode, setMode] = useState<RenderMode>("redesign");
  const [reference, setReference] = useState("");
  const [choices, setChoices] = useState<Record<string, Choice>>({});

  const modes = engine ? renderModesFor(engine.capabilities, "room-photo") : (["redesign"] as const);
  const takesReference = engine?.capabilities.referencePicture === true;
  const finished = renders.filter((render) => render.status === "succeeded" && render.kind !== "edit");
  const list = photos.data ?? [];
  const choiceOf = (imageId: string, roomType: RoomType): Choice => choices[imageId] ?? { include: true, roomType };
  const chosen = list.filter((photo) => choiceOf(photo.imageId, photo.roomType).include);
  const price = chosen.length * CREDITS.perRender;
  const balance = allowance.data?.credits ?? 0;

  const submit = async () => {
    // The server says the same; said here at once, before a round trip.
    if (chosen.length === 0) return void toast.error(t("serverMessages.setNoPhotos"));
    try {
      const created = await createSet.mutateAsync({
        projectId,
        style,
        ...(mode === "redesign" ? {} : { renderMode: mode }),
        photos: chosen.map((photo) => ({ imageId: photo.imageId, roomType: choiceOf(photo.imageId, photo.roomType).roomType })),
        ...(takesReference && reference ? { referenceJobId: reference } : {}),
      });
      toast.success(t("renderSets.started", { count: created.jobs.length }));
      setOpen(false);
      await Promise.all([
        utils.render.sets.invalidate({ projectId }),
        utils.render.allowance.invalidate(),
        utils.projects.get.invalidate(),
      ]);
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)} data-testid="apply-to-project">
        <Layers className="size-4" aria-hidden="true" />
        {t("renderSets.open")}
      </button>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title={t("renderSets.title")}
        description={t("renderSets.description")}
        submitLabel={t("renderSets.submit", { count: chosen.length })}
        busy={createSet.isPending}
        onSubmit={() => void submit()}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block">
            <span className={labelClass}>{t("renderSets.style")}</span>
            <select
              className={selectClass}
              value={style}
              onChange={(event) => setStyle(event.target.value as StyleKey)}
              data-testid="set-style"
            >
              <optgroup label={t("customStyles.picker.builtIn")}>
                {DESIGN_STYLES.map((name) => (
                  <option key={name} value={name}>
                    {t(`styles.${name}`)}
                  </option>
                ))}
              </optgroup>
              {customStyles.data && customStyles.data.styles.length > 0 ? (
                <optgroup label={t(customStyles.data.teamId ? "customStyles.picker.teamHeading" : "customStyles.picker.heading")}>
                  {customStyles.data.styles.map((custom) => (
                    <option key={custom.id} value={custom.id}>
                      {custom.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </label>
          {modes.length > 1 ? (
            <label className="block">
              <span className={labelClass}>{t("renderSets.mode")}</span>
              <select className={selectClass} value={mode} onChange={(event) => setMode(event.target.value as RenderMode)}>
                {RENDER_MODES.filter((name) => modes.includes(name)).map((name) => (
                  <option key={name} value={name}>
                    {t(`renderOptions.modes.${name}`)}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </div>
        {finished.length > 0 ? (
          takesReference ? (
            <label className="block">
              <span className={labelClass}>{t("renderSets.reference")}</span>
              <select
                className={selectClass}
                value={reference}
                onChange={(event) => setReference(event.target.value)}
                data-testid="set-reference"
              >
                <option value="">{t("renderSets.noReference")}</option>
                {finished.map((render, index) => (
                  <option key={render.id} value={render.id}>
                    {`${index + 1}. ${render.style ? styleLabel(t, render.style, render.styleName) : render.id.slice(0, 6)}`}
                  </option>
                ))}
              </select>
              <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">{t("renderSets.referenceHint")}</span>
            </label>
          ) : (
            <p className="text-xs text-slate-500 dark:text-slate-400">{t("renderSets.noReferenceEngine")}</p>
          )
        ) : null}
        <fieldset>
          <legend className={labelClass}>{t("renderSets.photos")}</legend>
          {photos.isSuccess && list.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">{t("renderSets.noPhotos")}</p>
          ) : (
            <ul className="max-h-64 space-y-2 overflow-y-auto pr-1" data-testid="set-photos">
              {list.map((photo, index) => {
                const choice = choiceOf(photo.imageId, photo.roomType);
                const update = (next: Partial<Choice>) => setChoices((all) => ({ ...all, [photo.imageId]: { ...choice, ...next } }));
                return (
                  <li key={photo.imageId} className="flex items-center gap-3">
                    <input
                      type="checkbox"
                      className="size-4 shrink-0 accent-brand-600"
                      checked={choice.include}
                      onChange={(event) => update({ include: event.target.checked })}
                      aria-label={t("renderSets.include", { number: index + 1 })}
                    />
                    <img src={photo.thumb} alt="" className="h-12 w-16 shrink-0 rounded object-cover" loading="lazy" />
                    <select
                      className={`${selectClass} min-w-0 flex-1`}
                      value={choice.roomType}
                      disabled={!choice.include}
                      onChange={(event) => update({ roomType: event.target.value as RoomType })}
                      aria-label={t("renderSets.roomOf", { number: index + 1 })}
                    >
                      {ROOM_TYPES.map((room) => (
                        <option key={room} value={room}>
                          {t(`roomTypes.${room}`)}
                        </option>
                      ))}
                    </select>
                  </li>
                );
              })}
            </ul>
          )}
        </fieldset>
        <p
          className={`text-sm font-medium ${price > balance ? "text-red-700 dark:text-red-300" : "text-slate-700 dark:text-slate-200"}`}
          data-testid="set-price"
        >
          {t("renderSets.price", { count: price, balance })}
        </p>
      </FormDialog>
    </>
  );
}
