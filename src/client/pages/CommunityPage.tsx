/**
 * /community (signed in; decision 102): the renders people published, newest or most liked, by
 * style and room (keyset pages, "Show more"); everything, only what the caller follows, or what they
 * saved. Like, save, follow the designer or studio, report, and "use this style" (built-in styles
 * only: another space's custom style is theirs) which opens the upload with the style chosen.
 */
import { Bookmark, Flag, Heart, UserCheck, UserPlus, Wand2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { COMMUNITY_SORTS, REPORT_REASONS, type CommunitySort, type FeedItem, type ReportReason } from "../../shared/community";
import { DESIGN_STYLES, ROOM_TYPES, type RoomType } from "../../shared/styles";
import { PublicationCard } from "../components/community/PublicationCard";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, labelClass, selectClass } from "../components/ui/buttons";
import { FormDialog } from "../components/ui/Dialog";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

const VIEWS = ["all", "following", "saved"] as const;
type View = (typeof VIEWS)[number];

const actionClass =
  "inline-flex min-h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 " +
  "aria-pressed:text-brand-700 disabled:opacity-50 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:text-brand-100";

function ReportDialog({ publication, onClose }: { publication: FeedItem | null; onClose(): void }) {
  const { t } = useTranslation();
  const report = trpc.community.report.useMutation();
  const [reason, setReason] = useState<ReportReason>("spam");
  const [note, setNote] = useState("");
  const [formError, setFormError] = useState<string>();
  useEffect(() => {
    setReason("spam");
    setNote("");
    setFormError(undefined);
  }, [publication]);
  const submit = async () => {
    if (!publication) return;
    try {
      await report.mutateAsync({ id: publication.id, reason, note });
      toast.success(t("community.reported"));
      onClose();
    } catch (caught) {
      setFormError(friendlyError(caught, t));
    }
  };
  return (
    <FormDialog
      open={publication !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("community.reportTitle")}
      description={t("community.reportDescription")}
      submitLabel={t("community.reportSubmit")}
      busy={report.isPending}
      onSubmit={() => void submit()}
    >
      <fieldset>
        <legend className={labelClass}>{t("community.reason")}</legend>
        <div className="space-y-2">
          {REPORT_REASONS.map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="report-reason"
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
                className="size-4 accent-brand-600"
              />
              {t(`community.reasons.${value}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor="report-note" className={labelClass}>
          {t("community.note")}
        </label>
        <textarea
          id="report-note"
          className={`${selectClass} min-h-20`}
          maxLength={500}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      {formError ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {formError}
        </p>
      ) : null}
    </FormDialog>
  );
}

function Actions({ item, onReport }: { item: FeedItem; onReport(item: FeedItem): void }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const like = trpc.community.like.useMutation();
  const save = trpc.community.save.useMutation();
  const follow = trpc.community.follow.useMutation();
  const busy = like.isPending || save.isPending || follow.isPending;
  const run = async (action: () => Promise<unknown>, done?: string) => {
    try {
      await action();
      if (done) toast.success(done);
      await utils.community.feed.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };
  const author = item.author;
  const authorName = author ? author.name || t("community.unnamedDesigner") : "";
  return (
    <div className="mt-auto flex flex-wrap items-center gap-1 pt-2">
      <button
        type="button"
        className={actionClass}
        aria-pressed={item.liked}
        disabled={busy}
        onClick={() => void run(() => like.mutateAsync({ id: item.id, on: !item.liked }))}
        data-testid="like"
      >
        <Heart className={`size-4 ${item.liked ? "fill-current" : ""}`} aria-hidden="true" />
        <span className="sr-only">{t("community.like")}</span>
        <span aria-hidden="true">{item.likes}</span>
        <span className="sr-only">({t("community.likes", { count: item.likes })})</span>
      </button>
      <button
        type="button"
        className={actionClass}
        aria-pressed={item.saved}
        disabled={busy}
        onClick={() => void run(() => save.mutateAsync({ id: item.id, on: !item.saved }))}
      >
        <Bookmark className={`size-4 ${item.saved ? "fill-current" : ""}`} aria-hidden="true" />
        {item.saved ? t("community.saved") : t("community.save")}
      </button>
      {author && !item.mine ? (
        <button
          type="button"
          className={actionClass}
          aria-pressed={item.followingAuthor}
          disabled={busy}
          onClick={() =>
            void run(
              () => follow.mutateAsync({ kind: author.kind, targetId: author.id, on: !item.followingAuthor }),
              t(item.followingAuthor ? "community.followOff" : "community.followOn", { name: authorName }),
            )
          }
        >
          {item.followingAuthor ? <UserCheck className="size-4" aria-hidden="true" /> : <UserPlus className="size-4" aria-hidden="true" />}
          {item.followingAuthor ? t("community.unfollow", { name: authorName }) : t("community.follow", { name: authorName })}
        </button>
      ) : null}
      {item.builtInStyle ? (
        <Link href={`/upload?style=${encodeURIComponent(item.style)}`} className={actionClass}>
          <Wand2 className="size-4" aria-hidden="true" />
          {t("community.useStyle")}
        </Link>
      ) : null}
      {item.mine ? (
        <span className="ml-auto rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          {t("community.yours")}
        </span>
      ) : (
        <button type="button" className={`${actionClass} ml-auto`} onClick={() => onReport(item)}>
          <Flag className="size-4" aria-hidden="true" />
          {t("community.report")}
        </button>
      )}
    </div>
  );
}

function Select<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange(value: T): void;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} className={selectClass} value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export default function CommunityPage() {
  const { t } = useTranslation();
  const [view, setView] = useState<View>("all");
  const [sort, setSort] = useState<CommunitySort>("newest");
  const [style, setStyle] = useState<string>("");
  const [room, setRoom] = useState<RoomType | "">("");
  const [reporting, setReporting] = useState<FeedItem | null>(null);
  const feed = trpc.community.feed.useInfiniteQuery(
    { view, sort, ...(style ? { style } : {}), ...(room ? { roomType: room } : {}) },
    { getNextPageParam: (page) => page.next ?? undefined },
  );
  const items = feed.data?.pages.flatMap((page) => page.items) ?? [];
  const empty = view === "saved" ? t("community.emptySaved") : view === "following" ? t("community.emptyFollowing") : t("community.empty");

  return (
    <PageShell wide title={t("pages.community.title")} intro={t("community.intro")}>
      <section aria-label={t("community.filters")} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Select<View>
          id="community-view"
          label={t("community.view")}
          value={view}
          options={VIEWS.map((value) => ({ value, label: t(`community.views.${value}`) }))}
          onChange={setView}
        />
        <Select<CommunitySort>
          id="community-sort"
          label={t("community.sort")}
          value={sort}
          options={COMMUNITY_SORTS.map((value) => ({ value, label: t(`community.sorts.${value}`) }))}
          onChange={setSort}
        />
        <Select
          id="community-style"
          label={t("community.style")}
          value={style}
          options={[
            { value: "", label: t("community.anyStyle") },
            ...DESIGN_STYLES.map((value) => ({ value, label: t(`styles.${value}`) })),
          ]}
          onChange={setStyle}
        />
        <Select<RoomType | "">
          id="community-room"
          label={t("community.room")}
          value={room}
          options={[
            { value: "", label: t("community.anyRoom") },
            ...ROOM_TYPES.map((value) => ({ value, label: t(`roomTypes.${value}`) })),
          ]}
          onChange={setRoom}
        />
      </section>
      {feed.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {feed.error ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {friendlyError(feed.error, t)}
        </p>
      ) : null}
      {feed.data && items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
          {empty}
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="community-feed">
          {items.map((item) => (
            <PublicationCard key={item.id} publication={item}>
              <Actions item={item} onReport={setReporting} />
            </PublicationCard>
          ))}
        </ul>
      ) : null}
      {feed.hasNextPage ? (
        <div className="flex justify-center">
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={feed.isFetchingNextPage}
            onClick={() => void feed.fetchNextPage()}
          >
            {t("community.loadMore")}
          </button>
        </div>
      ) : null}
      <ReportDialog publication={reporting} onClose={() => setReporting(null)} />
    </PageShell>
  );
}
