/**
 * /style-select?image=ID&project=PID[&style=KEY]: the uploaded picture, the styles (the built-in ones
 * and the space's own; one, or several at one credit each), an optional note, what it costs and what
 * is left, the engine, and Render. `style` chooses a style ahead ("use this style").
 */
import { OpenInStudioLink } from "../components/studio/OpenInStudioLink";
import { FileImage, ImageOff, Sparkles, Wand2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearch } from "wouter";
import { MESSAGES } from "../../shared/messages";
import { renderModesFor, type EngineInfo } from "../../shared/render";
import { DESIGN_STYLES } from "../../shared/styles";
import { isBuiltInStyle, isCustomStyleKey, type StyleKey } from "../../shared/custom-styles";
import { NoteField } from "../components/render/NoteField";
import {
  AllowanceNote,
  Callout,
  DemoRefusedCallout,
  EngineNote,
  FreeCreditsLockedCallout,
  SignUpCallout,
  waitsForConfirmation,
} from "../components/render/Callouts";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { Picture } from "../components/render/Picture";
import { RenderOptions, renderCost, type RenderChoices } from "../components/render/RenderOptions";
import { StylePicker } from "../components/render/StylePicker";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, linkClass } from "../components/ui/buttons";
import { errorMessage, friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

/** A refusal the page answers with its own call to action rather than a line of text. */
type Refusal = "credits" | "freeCredits" | "signUp" | null;

function refusalOf(message: string): Refusal {
  if (message === MESSAGES.notEnoughCredits) return "credits";
  if (message === MESSAGES.freeCreditsNeedConfirmation) return "freeCredits";
  if (message === MESSAGES.demoUsed || message === MESSAGES.demoOneStyle || message === MESSAGES.demoOneVariation) return "signUp";
  return null;
}

/**
 * What the engine makes of a floor plan, said before the user confirms (decision 067): on an engine
 * that makes nothing of one, that it is not rendered and costs nothing, with the way on; otherwise
 * what kind of picture will come back.
 */
function FloorPlanNote({ engine }: { engine: EngineInfo }) {
  const { t } = useTranslation();
  const { floorPlan } = engine.capabilities;
  if (floorPlan === "none")
    return (
      <Callout
        tone="amber"
        testId="floor-plan-none"
        icon={<FileImage className="size-5" aria-hidden="true" />}
        title={t("styleSelect.plan.noneTitle")}
        actions={
          <Link href="/upload" className={buttonClass.primary}>
            {t("styleSelect.plan.uploadPhoto")}
          </Link>
        }
      >
        {t("styleSelect.plan.noneBody")}
      </Callout>
    );
  return (
    <Callout testId="floor-plan-note" icon={<FileImage className="size-5" aria-hidden="true" />} title={t("styleSelect.plan.title")}>
      {t(floorPlan === "top-down" ? "styleSelect.plan.topDown" : "styleSelect.plan.eyeLevel", { engine: engine.label })}
    </Callout>
  );
}

export function MissingPicture({ title, body }: { title: string; body: string }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 px-6 py-16 text-center" data-testid="missing-picture">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-300">
        <ImageOff className="size-6" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{body}</p>
      <Link href="/upload" className={buttonClass.primary}>
        {t("styleSelect.goUpload")}
      </Link>
    </div>
  );
}

export default function StyleSelectPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const imageId = params.get("image");
  const projectParam = params.get("project");
  const styleParam = params.get("style") ?? "";

  const upload = trpc.render.upload.useQuery({ id: imageId ?? "" }, { enabled: !!imageId, retry: false });
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 0 });
  const create = trpc.render.create.useMutation();
  const utils = trpc.useUtils();
  // The styles of the space the picture is in (a render of it may use those only); a visitor has none.
  const customStyles = trpc.styles.list.useQuery(
    { teamId: upload.data?.teamId ?? null },
    { enabled: !!upload.data && allowance.data?.signedIn === true, retry: false },
  );

  const [chosenStyles, setStyles] = useState<StyleKey[]>(() =>
    isBuiltInStyle(styleParam) || isCustomStyleKey(styleParam) ? [styleParam] : [],
  );
  // A custom style asked for ahead counts once the space's list has it (a visitor's, or another space's, is dropped).
  const styles = chosenStyles.filter((key) => !isCustomStyleKey(key) || customStyles.data?.styles.some((style) => style.id === key));
  const [multi, setMulti] = useState(false);
  const [note, setNote] = useState("");
  const [choices, setChoices] = useState<RenderChoices>({ renderMode: "redesign", variations: 1 });
  const [error, setError] = useState<string>();
  const [refusal, setRefusal] = useState<Refusal>(null);

  if (!imageId) return <MissingPicture title={t("styleSelect.missingTitle")} body={t("styleSelect.missingBody")} />;
  if (upload.isLoading) return <Spinner label={t("styleSelect.loadingPicture")} />;
  if (upload.error || !upload.data) return <MissingPicture title={t("styleSelect.notFoundTitle")} body={friendlyError(upload.error, t)} />;

  const picture = upload.data;
  const signedIn = allowance.data?.signedIn ?? false;
  /** Why this visitor's free demo is not theirs now (null: it is, or they are signed in). */
  const demoRefusal =
    allowance.data && !allowance.data.signedIn && !allowance.data.demoAvailable ? (allowance.data.demoRefusal ?? "used") : null;
  const visitorBlocked = demoRefusal !== null;
  const credits = allowance.data?.credits ?? null;
  const variations = signedIn ? choices.variations : 1;
  // An exterior (issue 33) is not rendered in a style: one of its modes (sky, twilight, garden) is chosen.
  const exterior = picture.roomType === "exterior";
  const exteriorModes = allowance.data ? renderModesFor(allowance.data.engine.capabilities, picture.mode, "exterior") : [];
  /** An exterior on engines without its modes (the Preview engine): nothing to choose, nothing charged. */
  const exteriorRefused = exterior && !!allowance.data && exteriorModes.length === 0;
  const renderMode =
    exterior && !exteriorModes.includes(choices.renderMode) ? (exteriorModes[0] ?? choices.renderMode) : choices.renderMode;
  const styleCount = exterior ? 1 : styles.length;
  const cost = renderCost(styleCount, variations);
  const tooFewCredits = signedIn && credits !== null && cost > credits;
  const waitsForAddress = waitsForConfirmation(allowance.data, cost);
  const isPlan = picture.mode === "floor-plan";
  /** A plan on an engine that makes nothing of one: nothing to choose, nothing to confirm, nothing charged. */
  const planRefused = isPlan && allowance.data?.engine.capabilities.floorPlan === "none";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!exterior && styles.length === 0) {
      setError(t("styleSelect.chooseOne"));
      return;
    }
    setError(undefined);
    setRefusal(null);
    try {
      const trimmed = note.trim();
      const result = await create.mutateAsync({
        projectId: projectParam ?? picture.projectId,
        imageId: picture.id,
        // An exterior's modes do not read a style; the request names the first built-in one.
        style: exterior ? DESIGN_STYLES[0] : styles.length === 1 ? styles[0]! : styles,
        ...(trimmed ? { note: trimmed } : {}),
        renderMode,
        ...(variations > 1 ? { variations } : {}),
      });
      await utils.render.allowance.invalidate();
      navigate(`/render?jobs=${result.jobs.map((job) => encodeURIComponent(job.id)).join(",")}`);
    } catch (caught) {
      const kind = refusalOf(errorMessage(caught));
      setRefusal(kind);
      if (!kind) setError(friendlyError(caught, t));
      await utils.render.allowance.invalidate();
    }
  };

  return (
    <PageShell
      title={t("pages.styleSelect.title")}
      intro={t("styleSelect.intro")}
      wide
      actions={allowance.data ? <AllowanceNote allowance={allowance.data} /> : null}
    >
      <form onSubmit={submit} className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]" noValidate>
        <aside className="space-y-4 lg:sticky lg:top-24 lg:self-start">
          <div className={`${cardClass} overflow-hidden`}>
            <Picture
              src={picture.thumbUrl}
              alt={t("styleSelect.yourPicture")}
              className="max-h-[50vh] w-full bg-slate-100 object-contain dark:bg-slate-800"
              style={{ aspectRatio: picture.width && picture.height ? `${picture.width} / ${picture.height}` : "4 / 3" }}
              data-testid="uploaded-picture"
            />
            <div className="flex items-center justify-between gap-2 px-4 py-3 text-sm">
              <span className="text-slate-600 dark:text-slate-300">
                {t(`inputModes.${picture.mode}`)} · {t(`roomTypes.${picture.roomType}`)}
              </span>
              <Link href="/upload" className={linkClass}>
                {t("styleSelect.changePicture")}
              </Link>
            </div>
          </div>
          {allowance.data ? <EngineNote engine={allowance.data.engine} /> : null}
          {/* Targeted edits of the photo itself, before (or instead of) a render. */}
          {signedIn && allowance.data?.engine.capabilities.masks && !planRefused ? <OpenInStudioLink jobId={picture.id} /> : null}
        </aside>

        <div className="min-w-0 space-y-6">
          {isPlan && allowance.data ? <FloorPlanNote engine={allowance.data.engine} /> : null}
          {planRefused ? (
            <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="plan-nothing-charged">
              {t("styleSelect.plan.nothingCharged")}
            </p>
          ) : exteriorRefused ? (
            <Callout tone="amber" title={t("renderOptions.exteriorTitle")} testId="exterior-refused">
              {t("serverMessages.exteriorNeedsAi")}
            </Callout>
          ) : (
            styleChoices()
          )}
        </div>
      </form>
    </PageShell>
  );

  /** The styles, note, options, price and Render: everything a render is chosen and confirmed with. */
  function styleChoices() {
    return (
      <>
        {demoRefusal && refusal !== "signUp" ? <DemoRefusedCallout refusal={demoRefusal} /> : null}

        {exterior ? null : (
          <StylePicker
            value={styles}
            onChange={setStyles}
            multi={multi}
            onMultiChange={setMulti}
            multiAllowed={signedIn}
            custom={signedIn ? customStyles.data : undefined}
            takesReference={allowance.data?.engine.capabilities.referencePicture === true}
          />
        )}

        <NoteField id="note" rows={3} value={note} onChange={setNote} hint={t("styleSelect.noteHint")} />

        {allowance.data ? (
          <RenderOptions
            capabilities={allowance.data.engine.capabilities}
            inputMode={picture.mode}
            roomType={picture.roomType}
            signedIn={signedIn}
            styleCount={styleCount}
            value={{ ...choices, renderMode }}
            onChange={setChoices}
          />
        ) : null}

        {(refusal === "freeCredits" || waitsForAddress) && allowance.data ? (
          <FreeCreditsLockedCallout count={allowance.data.freeCreditsLocked} engine={allowance.data.engine} />
        ) : null}
        {refusal === "credits" || tooFewCredits ? (
          <Callout
            tone="amber"
            testId="credits-callout"
            icon={<Sparkles className="size-5" aria-hidden="true" />}
            title={t("serverMessages.notEnoughCredits")}
            actions={
              <Link href="/pricing" className={buttonClass.primary}>
                {t("flow.buyCredits")}
              </Link>
            }
          >
            {t("styleSelect.creditsNeeded", { count: cost, credits: credits ?? 0 })}
          </Callout>
        ) : null}
        {refusal === "signUp" ? (
          <SignUpCallout
            tone="amber"
            title={multi || styles.length > 1 ? t("serverMessages.demoOneStyle") : t("serverMessages.demoUsed")}
          />
        ) : null}
        <ErrorText message={error} />

        <div className="flex flex-col gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {signedIn
              ? t("styleSelect.costSummary", { count: cost })
              : demoRefusal === "address-limit"
                ? t("flow.demoAddressLimitShort")
                : demoRefusal
                  ? t("flow.demoUsedShort")
                  : t("styleSelect.costDemo")}
          </p>
          <button
            type="submit"
            className={`${buttonClass.big} w-full sm:w-auto`}
            disabled={create.isPending || styleCount === 0 || visitorBlocked || tooFewCredits || waitsForAddress}
            aria-busy={create.isPending || undefined}
          >
            <Wand2 className="size-5" aria-hidden="true" />
            {create.isPending ? t("styleSelect.starting") : t("styleSelect.render", { count: styleCount || 1 })}
          </button>
        </div>
      </>
    );
  }
}
