/**
 * /marketplace (signed in; issue 32, decision 104): styles others published on this server, browsed
 * by room and tone, newest or most installed; a listing's page with its examples, styles and install
 * count; install into the current space, and an update accepted or declined; what the space has
 * installed, with the updates waiting. Below: the space's own
 * listings (publish styles with a cover and examples from its finished renders, unpublish), and style
 * packs exported and imported as files. Paid styles are out of scope, and the page says so.
 */
import { Download, PackageOpen, Store, Upload } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { STYLE_TONES, type StyleTone } from "../../shared/custom-styles";
import { MARKETPLACE, marketplacePicturePath, type MarketplaceSort, type OwnMarketplaceListing } from "../../shared/marketplace";
import { stylePackPath } from "../../shared/style-packs";
import { ROOM_TYPES, type RoomType } from "../../shared/styles";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, labelClass, selectClass } from "../components/ui/buttons";
import { inputClass } from "../components/auth/fields";
import { friendlyError } from "../lib/friendlyError";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";

function Swatches({ palette }: { palette: string[] }) {
  return (
    <span className="inline-flex gap-0.5" aria-hidden="true">
      {palette.map((colour, index) => (
        <span key={index} className="size-3 rounded-full border border-slate-300 dark:border-slate-600" style={{ background: colour }} />
      ))}
    </span>
  );
}

function ListingDetail({ listingId, teamId, onClose }: { listingId: string; teamId: string | null; onClose(): void }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const listing = trpc.marketplace.get.useQuery({ listingId, teamId });
  const install = trpc.marketplace.install.useMutation();
  const accept = trpc.marketplace.acceptUpdate.useMutation();
  const keep = trpc.marketplace.keepOwn.useMutation();
  const act = async (action: typeof install, done: string) => {
    try {
      await action.mutateAsync({ listingId, teamId });
      toast.success(t(done));
      await Promise.all([utils.marketplace.invalidate(), utils.styles.invalidate()]);
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };
  if (listing.isLoading) return <Spinner label={t("common.loading")} />;
  if (listing.error || !listing.data) return <ErrorText message={friendlyError(listing.error, t)} />;
  const data = listing.data;
  return (
    <section className={`${cardClass} space-y-4 p-5`} aria-labelledby="listing-title" data-testid="marketplace-listing">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="listing-title" className="text-xl font-semibold">
            {data.title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="listing-installs">
            {t("marketplace.installCount", { count: data.installCount })} · {t("marketplace.version", { version: data.version })}
          </p>
        </div>
        <button type="button" className={buttonClass.ghost} onClick={onClose}>
          {t("marketplace.back")}
        </button>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <img
          src={marketplacePicturePath(data.id, "cover")}
          alt={t("marketplace.coverAlt", { title: data.title })}
          className="aspect-[4/3] w-full rounded-lg object-cover"
        />
        {data.examples.map((example) => (
          <figure key={example.number}>
            <img
              src={marketplacePicturePath(data.id, example.number)}
              alt={t("marketplace.exampleAlt", { room: t(`roomTypes.${example.roomType}`) })}
              className="aspect-[4/3] w-full rounded-lg object-cover"
              loading="lazy"
            />
            <figcaption className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t(`roomTypes.${example.roomType}`)}</figcaption>
          </figure>
        ))}
      </div>
      <ul className="space-y-2">
        {data.styles.map((style, index) => (
          <li key={index} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
            <p className="flex items-center gap-2 font-medium">
              {style.name} <Swatches palette={style.palette} />
              <span className="text-xs text-slate-500 dark:text-slate-400">{t(`customStyles.tones.${style.tone}`)}</span>
            </p>
            <p className="text-sm text-slate-600 dark:text-slate-300">{style.description}</p>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        {data.installed === null ? (
          <button
            type="button"
            className={buttonClass.primary}
            disabled={install.isPending}
            onClick={() => void act(install, "marketplace.installed")}
          >
            {t("marketplace.install")}
          </button>
        ) : data.installed.updateAvailable ? (
          <>
            <p className="text-sm font-medium" data-testid="update-available">
              {t("marketplace.updateAvailable", { version: data.version })}
            </p>
            <button
              type="button"
              className={buttonClass.primary}
              disabled={accept.isPending}
              onClick={() => void act(accept, "marketplace.updated")}
            >
              {t("marketplace.acceptUpdate")}
            </button>
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={keep.isPending}
              onClick={() => void act(keep, "marketplace.kept")}
            >
              {t("marketplace.keepOwn")}
            </button>
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="installed-note">
            {t("marketplace.alreadyInstalled", { version: data.installed.version })}
          </p>
        )}
      </div>
    </section>
  );
}

function Browse({ onOpen }: { onOpen(id: string): void }) {
  const { t } = useTranslation();
  const [roomType, setRoomType] = useState<RoomType | "">("");
  const [tone, setTone] = useState<StyleTone | "">("");
  const [sort, setSort] = useState<MarketplaceSort>("newest");
  const pages = trpc.marketplace.browse.useInfiniteQuery(
    { roomType: roomType || null, tone: tone || null, sort },
    { getNextPageParam: (page) => page.next, initialCursor: null },
  );
  const listings = pages.data?.pages.flatMap((page) => page.listings) ?? [];
  return (
    <section aria-labelledby="browse-title" className="space-y-4">
      <h2 id="browse-title" className="text-lg font-semibold">
        {t("marketplace.browseTitle")}
      </h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <label>
          <span className={labelClass}>{t("marketplace.room")}</span>
          <select className={selectClass} value={roomType} onChange={(event) => setRoomType(event.target.value as RoomType | "")}>
            <option value="">{t("marketplace.anyRoom")}</option>
            {ROOM_TYPES.map((room) => (
              <option key={room} value={room}>
                {t(`roomTypes.${room}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelClass}>{t("marketplace.tone")}</span>
          <select className={selectClass} value={tone} onChange={(event) => setTone(event.target.value as StyleTone | "")}>
            <option value="">{t("marketplace.anyTone")}</option>
            {STYLE_TONES.map((value) => (
              <option key={value} value={value}>
                {t(`customStyles.tones.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelClass}>{t("marketplace.sort")}</span>
          <select className={selectClass} value={sort} onChange={(event) => setSort(event.target.value as MarketplaceSort)}>
            <option value="newest">{t("marketplace.sortNewest")}</option>
            <option value="installs">{t("marketplace.sortInstalls")}</option>
          </select>
        </label>
      </div>
      {pages.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {pages.error ? <ErrorText message={friendlyError(pages.error, t)} /> : null}
      {pages.data && listings.length === 0 ? <p className={`${cardClass} p-6 text-center`}>{t("marketplace.empty")}</p> : null}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="marketplace-listings">
        {listings.map((listing) => (
          <li key={listing.id}>
            <button type="button" className={`${cardClass} block w-full overflow-hidden text-left`} onClick={() => onOpen(listing.id)}>
              <img src={marketplacePicturePath(listing.id, "cover")} alt="" className="aspect-[4/3] w-full object-cover" loading="lazy" />
              <span className="block space-y-1 p-3">
                <span className="block font-semibold">{listing.title}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-300">
                  {listing.tones.map((value) => t(`customStyles.tones.${value}`)).join(", ")} ·{" "}
                  {t("marketplace.installCount", { count: listing.installCount })}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {pages.hasNextPage ? (
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {t("marketplace.more")}
        </button>
      ) : null}
    </section>
  );
}

/** What this space installed, each with its version and, when one waits, its update: opened to take it or keep its own. */
function Installed({ teamId, onOpen }: { teamId: string | null; onOpen(id: string): void }) {
  const { t } = useTranslation();
  const installs = trpc.marketplace.installs.useQuery({ teamId });
  if (!installs.data || installs.data.length === 0) return null;
  return (
    <section aria-labelledby="installed-title" className={`${cardClass} space-y-3 p-5`} data-testid="marketplace-installed">
      <h2 id="installed-title" className="text-lg font-semibold">
        {t("marketplace.installedTitle")}
      </h2>
      <ul className="divide-y divide-slate-200 dark:divide-slate-700">
        {installs.data.map((installed) => (
          <li key={installed.listingId} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0">
              <span className="font-medium">{installed.title}</span>{" "}
              <span className="text-sm text-slate-600 dark:text-slate-300">
                · {t("marketplace.installedVersion", { version: installed.version })}
              </span>
              {installed.updateAvailable ? (
                <span
                  className="ms-2 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 dark:bg-brand-700/30 dark:text-brand-100"
                  data-testid="installed-update"
                >
                  {t("marketplace.updateBadge", { version: installed.listingVersion })}
                </span>
              ) : null}
            </span>
            <button type="button" className={buttonClass.secondary} onClick={() => onOpen(installed.listingId)}>
              {t("marketplace.open")}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function YourListings({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const mine = trpc.marketplace.mine.useQuery({ teamId });
  const styles = trpc.styles.list.useQuery({ teamId });
  const renders = trpc.render.list.useQuery({ limit: 50 });
  const publish = trpc.marketplace.publish.useMutation();
  const republish = trpc.marketplace.republish.useMutation();
  const unpublish = trpc.marketplace.unpublish.useMutation();
  /** The listing a new version is being made of (null: a new listing). */
  const [updating, setUpdating] = useState<OwnMarketplaceListing | null>(null);
  const [title, setTitle] = useState("");
  const [styleIds, setStyleIds] = useState<string[]>([]);
  const form = useRef<HTMLFormElement>(null);
  const [exampleIds, setExampleIds] = useState<string[]>([]);
  const finished = (renders.data ?? []).filter((job) => job.status === "succeeded" && job.kind === "render" && job.result);
  const toggle = (list: string[], id: string, max: number) =>
    list.includes(id) ? list.filter((other) => other !== id) : list.length < max ? [...list, id] : list;

  const submit = async () => {
    try {
      const coverJobId = exampleIds[0] ?? finished[0]?.id ?? "";
      const listing = { title, styleIds, coverJobId, exampleJobIds: exampleIds };
      if (updating) {
        const { version } = await republish.mutateAsync({ listingId: updating.id, ...listing });
        toast.success(t("marketplace.republished", { version }));
      } else {
        await publish.mutateAsync({ teamId, ...listing });
        toast.success(t("marketplace.published"));
      }
      setUpdating(null);
      setTitle("");
      setStyleIds([]);
      setExampleIds([]);
      await utils.marketplace.invalidate();
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };
  // A new version starts from the listing's title and the styles it was made from (those that still exist);
  // its examples are chosen again, from the space's renders of today.
  const startUpdate = (listing: OwnMarketplaceListing) => {
    const existing = new Set((styles.data?.styles ?? []).map((style) => style.id));
    setUpdating(listing);
    setTitle(listing.title);
    setStyleIds(listing.sourceStyleIds.filter((id) => existing.has(id)));
    setExampleIds([]);
    form.current?.scrollIntoView({ block: "start" });
  };
  const remove = async (listingId: string) => {
    try {
      await unpublish.mutateAsync({ listingId });
      toast.success(t("marketplace.unpublished"));
      await utils.marketplace.invalidate();
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };

  return (
    <section aria-labelledby="your-listings" className={`${cardClass} space-y-4 p-5`}>
      <h2 id="your-listings" className="text-lg font-semibold">
        {t("marketplace.yourListings")}
      </h2>
      {mine.data && mine.data.length > 0 ? (
        <ul className="space-y-2" data-testid="your-listings">
          {mine.data.map((listing) => (
            <li key={listing.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {listing.title} · {t("marketplace.installCount", { count: listing.installCount })}
              </span>
              <span className="flex flex-wrap gap-2">
                <button type="button" className={buttonClass.secondary} onClick={() => startUpdate(listing)}>
                  {t("marketplace.newVersion")}
                </button>
                <button type="button" className={buttonClass.dangerOutline} onClick={() => void remove(listing.id)}>
                  {t("marketplace.unpublish")}
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("marketplace.noListings")}</p>
      )}
      <form
        ref={form}
        className="space-y-3"
        data-testid="listing-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <h3 className="font-medium">
          {updating ? t("marketplace.newVersionTitle", { title: updating.title }) : t("marketplace.publishTitle")}
        </h3>
        {updating ? <p className="text-sm text-slate-600 dark:text-slate-300">{t("marketplace.newVersionNote")}</p> : null}
        <label className="block">
          <span className={labelClass}>{t("marketplace.listingTitle")}</span>
          <input className={inputClass} value={title} maxLength={MARKETPLACE.titleMax} onChange={(event) => setTitle(event.target.value)} />
        </label>
        <fieldset>
          <legend className={labelClass}>{t("marketplace.chooseStyles")}</legend>
          {(styles.data?.styles ?? []).length === 0 ? <p className="text-sm">{t("marketplace.noStyles")}</p> : null}
          {(styles.data?.styles ?? []).map((style) => (
            <label key={style.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={styleIds.includes(style.id)}
                onChange={() => setStyleIds((list) => toggle(list, style.id, MARKETPLACE.stylesMax))}
              />
              {style.name} <Swatches palette={style.palette} />
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend className={labelClass}>{t("marketplace.chooseExamples")}</legend>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {finished.map((job) => (
              <label key={job.id} className="relative block">
                <input
                  type="checkbox"
                  className="absolute left-1 top-1"
                  checked={exampleIds.includes(job.id)}
                  onChange={() => setExampleIds((list) => toggle(list, job.id, MARKETPLACE.examplesMax))}
                  aria-label={t("marketplace.exampleAlt", { room: t(`roomTypes.${job.roomType}`) })}
                />
                <img src={job.result!.thumb} alt="" className="aspect-square w-full rounded object-cover" loading="lazy" />
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t("marketplace.coverNote")}</p>
        </fieldset>
        <button
          type="submit"
          className={buttonClass.primary}
          disabled={publish.isPending || republish.isPending || styleIds.length === 0 || finished.length === 0}
        >
          {updating ? t("marketplace.publishVersion") : t("marketplace.publish")}
        </button>
        {updating ? (
          <button
            type="button"
            className={`${buttonClass.ghost} ms-2`}
            onClick={() => {
              setUpdating(null);
              setTitle("");
              setStyleIds([]);
            }}
          >
            {t("common.cancel")}
          </button>
        ) : null}
      </form>
    </section>
  );
}

function StylePacks({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const space = teamId ? `?teamId=${encodeURIComponent(teamId)}` : "";
  const importPack = async (pack: File) => {
    setBusy(true);
    try {
      const response = await fetch(`${stylePackPath}${space}`, {
        method: "POST",
        headers: { "content-type": "application/zip" },
        body: pack,
      });
      const body = (await response.json()) as { styles?: unknown[]; error?: string };
      if (!response.ok) toast.error(translateMessage(body.error ?? "", t));
      else {
        toast.success(t("marketplace.imported", { count: body.styles?.length ?? 0 }));
        await utils.styles.invalidate();
      }
    } catch (error) {
      toast.error(friendlyError(error, t));
    } finally {
      setBusy(false);
      if (file.current) file.current.value = "";
    }
  };
  return (
    <section aria-labelledby="style-packs" className={`${cardClass} space-y-3 p-5`}>
      <h2 id="style-packs" className="flex items-center gap-2 text-lg font-semibold">
        <PackageOpen className="size-5" aria-hidden="true" />
        {t("marketplace.packsTitle")}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("marketplace.packsIntro")}</p>
      <div className="flex flex-wrap gap-3">
        <a className={buttonClass.secondary} href={`${stylePackPath}${space}`} download>
          <Download className="size-4" aria-hidden="true" />
          {t("marketplace.exportPack")}
        </a>
        <label className={`${buttonClass.secondary} cursor-pointer`}>
          <Upload className="size-4" aria-hidden="true" />
          {t("marketplace.importPack")}
          <input
            ref={file}
            type="file"
            accept=".zip,application/zip"
            className="sr-only"
            disabled={busy}
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              if (chosen) void importPack(chosen);
            }}
          />
        </label>
      </div>
    </section>
  );
}

export default function MarketplacePage() {
  const { t } = useTranslation();
  const allowance = trpc.render.allowance.useQuery();
  const [open, setOpen] = useState<string | null>(null);
  const teamId = allowance.data?.teamId ?? null;
  return (
    <PageShell title={t("pages.marketplace.title")} intro={t("marketplace.intro")}>
      <p
        className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100"
        data-testid="paid-out-of-scope"
      >
        <Store className="size-4 shrink-0" aria-hidden="true" />
        {t("marketplace.paidOutOfScope")}
      </p>
      {open ? <ListingDetail listingId={open} teamId={teamId} onClose={() => setOpen(null)} /> : <Browse onOpen={setOpen} />}
      <Installed
        teamId={teamId}
        onOpen={(id) => {
          setOpen(id);
          window.scrollTo({ top: 0 });
        }}
      />
      <YourListings teamId={teamId} />
      <StylePacks teamId={teamId} />
    </PageShell>
  );
}
