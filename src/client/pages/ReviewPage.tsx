/**
 * /review/<token> (issue 28, decision 073): a client's review link, opened without an account. The
 * studio's brand, each picture with before/after, its state, comments and decisions; the client
 * comments, approves or asks for changes, giving their name once (kept on this device). No
 * analytics leave this page (shared/routes isUntrackedPath). A revoked or expired link says it is
 * no longer available (the server answered the page with 404 too).
 */
import { CheckCircle2, LinkIcon, MessageSquareWarning, Send } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "wouter";
import { REVIEW, reviewAuthorSchema, reviewCommentTextSchema, type ReviewDecisionState, type ReviewPagePicture } from "../../shared/review";
import { inputClass } from "../components/auth/fields";
import { BrandMark } from "../components/Brand";
import { ArMeasureList } from "../components/measure/ArMeasureList";
import { PhotoMeasuresView } from "../components/measure/MeasureOverlay";
import { BeforeAfter } from "../components/render/BeforeAfter";
import { ReviewFeedbackList, ReviewStateBadge } from "../components/review/ReviewFeedback";
import { PaintColourList, paintColourLabel, Swatch } from "../components/studio/PaintColour";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, labelClass, linkClass } from "../components/ui/buttons";
import { friendlyError, translateServerMessage } from "../lib/friendlyError";
import { useStudio } from "../lib/studio";
import { trpc } from "../trpc";

function storedName(): string {
  try {
    return localStorage.getItem(REVIEW.nameStorageKey) ?? "";
  } catch {
    return "";
  }
}

function storeName(name: string): void {
  try {
    localStorage.setItem(REVIEW.nameStorageKey, name);
  } catch {
    // Private mode: the name lasts for this visit.
  }
}

const isNotFound = (error: unknown) => (error as { data?: { code?: string } } | null)?.data?.code === "NOT_FOUND";

function Gone() {
  const { t } = useTranslation();
  return (
    <section
      className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-3 px-6 text-center"
      data-testid="review-gone"
    >
      <LinkIcon className="size-10 text-slate-400" aria-hidden="true" />
      <h1 className="text-2xl font-semibold">{t("review.page.goneTitle")}</h1>
      <p className="text-slate-600 dark:text-slate-300">{t("review.page.goneBody")}</p>
    </section>
  );
}

function NameForm({ initial, onSave }: { initial: string; onSave(name: string): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = reviewAuthorSchema.safeParse(name);
    if (!parsed.success) return setError(translateServerMessage(parsed.error.issues[0]!.message, t));
    onSave(parsed.data);
  };
  return (
    <form onSubmit={submit} className={`${cardClass} space-y-3 p-4`} data-testid="review-name-form">
      <h2 className="font-semibold">{t("review.page.nameTitle")}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("review.page.nameHint")}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={id} className={labelClass}>
            {t("review.page.nameLabel")}
          </label>
          <input
            id={id}
            className={inputClass}
            value={name}
            autoComplete="name"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
          />
        </div>
        <button type="submit" className={buttonClass.primary}>
          {t("review.page.nameSave")}
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function PictureCard({
  token,
  picture,
  number,
  count,
  author,
  onChanged,
}: {
  token: string;
  picture: ReviewPagePicture;
  number: number;
  count: number;
  author: string;
  onChanged(): void;
}) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState("");
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const comment = trpc.review.comment.useMutation();
  const decide = trpc.review.decide.useMutation();
  const fieldId = useId();
  const title = t("review.page.picture", { number, count });
  const language = i18n.resolvedLanguage ?? "en";

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(undefined);
    const parsed = reviewCommentTextSchema.safeParse(text);
    if (!parsed.success) return setError(translateServerMessage(parsed.error.issues[0]!.message, t));
    try {
      await comment.mutateAsync({ token, jobId: picture.jobId, author, text: parsed.data });
      setText("");
      setError(undefined);
      setNotice(t("review.page.sent"));
      onChanged();
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };
  const choose = async (state: ReviewDecisionState) => {
    setNotice(undefined);
    try {
      await decide.mutateAsync({ token, jobId: picture.jobId, author, state });
      setError(undefined);
      setNotice(t("review.page.decided"));
      onChanged();
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };
  const tooLong = text.length > REVIEW.commentMax;
  const busy = comment.isPending || decide.isPending;

  return (
    <li className={`${cardClass} space-y-4 p-3 sm:p-5`} data-testid="review-picture" data-job={picture.jobId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        <ReviewStateBadge state={picture.state} />
      </div>
      <BeforeAfter
        before={picture.before}
        after={`${picture.after}&lang=${language}`}
        subject={title}
        width={picture.width}
        height={picture.height}
      />
      {picture.measures ? <PhotoMeasuresView picture={picture.before} measures={picture.measures} /> : null}
      {picture.paint ? (
        <p className="flex items-center gap-2 text-sm" data-testid="review-picture-colour">
          <Swatch colour={picture.paint.colour} />
          {paintColourLabel(t, picture.paint)}
        </p>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="button"
          className={buttonClass.primary}
          disabled={!author || busy}
          aria-pressed={picture.state === "approved"}
          onClick={() => void choose("approved")}
        >
          <CheckCircle2 className="size-4" aria-hidden="true" />
          {t("review.page.approve")}
        </button>
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={!author || busy}
          aria-pressed={picture.state === "changes-requested"}
          onClick={() => void choose("changes-requested")}
        >
          <MessageSquareWarning className="size-4" aria-hidden="true" />
          {t("review.page.askChanges")}
        </button>
      </div>
      <div className="space-y-2">
        <h3 className="text-sm font-semibold">{t("review.page.comments")}</h3>
        <ReviewFeedbackList comments={picture.comments} decisions={picture.decisions} />
      </div>
      <form onSubmit={send} className="space-y-2">
        <label htmlFor={fieldId} className={labelClass}>
          {t("review.page.commentLabel")}
        </label>
        <textarea
          id={fieldId}
          className={`${inputClass} min-h-24`}
          value={text}
          placeholder={t("review.page.commentPlaceholder")}
          disabled={!author}
          aria-invalid={error || tooLong ? true : undefined}
          aria-describedby={`${fieldId}-count${error ? ` ${fieldId}-error` : ""}`}
          onChange={(event) => {
            setText(event.target.value);
            setError(undefined);
          }}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span
            id={`${fieldId}-count`}
            className={`text-xs tabular-nums ${tooLong ? "font-semibold text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400"}`}
          >
            {t("review.page.commentCount", { count: text.length, max: REVIEW.commentMax })}
          </span>
          <button type="submit" className={buttonClass.secondary} disabled={!author || busy}>
            <Send className="size-4" aria-hidden="true" />
            {t("review.page.send")}
          </button>
        </div>
        {error ? (
          <p id={`${fieldId}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        ) : null}
        {notice ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
            {notice}
          </p>
        ) : null}
      </form>
    </li>
  );
}

export default function ReviewPage() {
  const { t, i18n } = useTranslation();
  const { token = "" } = useParams<{ token: string }>();
  const studio = useStudio();
  const page = trpc.review.page.useQuery({ token }, { retry: false, staleTime: 0 });
  const [author, setAuthor] = useState(storedName);
  const [editingName, setEditingName] = useState(false);

  // The studio's page is not for search engines (the server says so in a header too).
  useEffect(() => {
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex, nofollow";
    document.head.append(meta);
    return () => meta.remove();
  }, []);

  if (page.isLoading) return <Spinner label={t("common.loading")} />;
  if (isNotFound(page.error)) return <Gone />;
  if (!page.data) {
    return (
      <p role="alert" className="mx-auto max-w-lg px-6 py-16 text-center text-slate-600 dark:text-slate-300">
        {page.error ? friendlyError(page.error, t) : t("review.page.loadFailed")}
      </p>
    );
  }
  const { title, expiresAt, pictures, roomMeasures, colours } = page.data;
  const until = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long" }).format(expiresAt);
  const saveName = (name: string) => {
    storeName(name);
    setAuthor(name);
    setEditingName(false);
  };

  return (
    <div className="mx-auto max-w-4xl space-y-5 px-3 py-6 sm:px-6 sm:py-10" data-testid="review-page">
      <header className="space-y-2">
        <p className="flex items-center gap-2 text-sm font-semibold text-slate-600 dark:text-slate-300">
          <BrandMark className="size-6" />
          <span data-testid="review-studio">{studio.name}</span>
        </p>
        <h1 className="text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">{title}</h1>
        <p className="text-slate-600 dark:text-slate-300">{t("review.page.intro", { studio: studio.name })}</p>
        <p className="text-sm text-slate-500 dark:text-slate-400">{t("review.page.until", { date: until })}</p>
      </header>

      {author && !editingName ? (
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="review-author">
          <span>{t("review.page.reviewingAs", { name: author })}</span>
          <button type="button" className={`text-sm ${linkClass}`} onClick={() => setEditingName(true)}>
            {t("review.page.changeName")}
          </button>
        </p>
      ) : (
        <NameForm initial={author} onSave={saveName} />
      )}
      {!author ? <p className="text-sm text-slate-500 dark:text-slate-400">{t("review.page.nameFirst")}</p> : null}

      <ol className="space-y-6">
        {pictures.map((picture, index) => (
          <PictureCard
            key={picture.jobId}
            token={token}
            picture={picture}
            number={index + 1}
            count={pictures.length}
            author={editingName ? "" : author}
            onChanged={() => void page.refetch()}
          />
        ))}
      </ol>
      {colours.length > 0 ? (
        <section className={`${cardClass} space-y-2 p-3 sm:p-5`} aria-labelledby="review-colours" data-testid="review-colours">
          <h2 id="review-colours" className="font-semibold">
            {t("paint.projectColours")}
          </h2>
          <PaintColourList colours={colours} />
        </section>
      ) : null}
      {roomMeasures.length > 0 ? (
        <section className={`${cardClass} space-y-2 p-3 sm:p-5`} aria-labelledby="review-room-measures">
          <h2 id="review-room-measures" className="font-semibold">
            {t("measure.ar.reviewTitle")}
          </h2>
          <ArMeasureList measures={roomMeasures} />
        </section>
      ) : null}
    </div>
  );
}
