/**
 * The solution: the three steps, and before/after pairs this studio made itself (render.gallery's
 * examples) in the BeforeAfter slider. Until they arrive (or if there are none) the drawn room
 * stands in, in the same frame, so nothing moves.
 */
import { ArrowRight, Palette, SplitSquareHorizontal, Upload } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import type { GalleryPair } from "../../lib/renderTypes";
import { trpc } from "../../trpc";
import { BeforeAfter } from "../render/BeforeAfter";
import { linkClass } from "../ui/buttons";
import { ROOM_DRAWING_RATIO, RoomSplit } from "./RoomDrawing";
import { SectionHeading } from "./SectionHeading";

const STEPS = [
  { icon: Upload, title: "landing.step1Title", body: "landing.step1Body" },
  { icon: Palette, title: "landing.step2Title", body: "landing.step2Body" },
  { icon: SplitSquareHorizontal, title: "landing.step3Title", body: "landing.step3Body" },
] as const;

/** The example pairs are drawn at 960 × 640. */
const EXAMPLE_SIZE = { width: 960, height: 640 };

function Examples({ pairs }: { pairs: GalleryPair[] }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState(0);
  const pair = pairs[Math.min(chosen, pairs.length - 1)]!;
  const subject = (item: GalleryPair) => `${t(`styles.${item.style}`)} · ${t(`roomTypes.${item.roomType}`)}`;
  return (
    <div data-testid="landing-examples">
      <div className="mb-3 flex flex-wrap gap-2" role="group" aria-label={t("home.solution.examples")}>
        {pairs.map((item, index) => (
          <button
            key={item.id}
            type="button"
            aria-pressed={item.id === pair.id}
            onClick={() => setChosen(index)}
            className="rounded-full border border-slate-300 px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 aria-pressed:border-brand-600 aria-pressed:bg-brand-600 aria-pressed:text-white dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:border-brand-500 dark:aria-pressed:bg-brand-600"
          >
            {subject(item)}
          </button>
        ))}
      </div>
      <BeforeAfter key={pair.id} before={pair.before} after={pair.after} subject={subject(pair)} {...EXAMPLE_SIZE} />
    </div>
  );
}

export function SolutionSection() {
  const { t } = useTranslation();
  const gallery = trpc.render.gallery.useQuery();
  const pairs = gallery.data?.examples ?? [];
  return (
    <section className="bg-slate-50 dark:bg-slate-900/60" aria-labelledby="solution-title">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[2fr_3fr] lg:items-center">
        <div className="min-w-0">
          <SectionHeading
            id="solution-title"
            align="left"
            eyebrow={t("home.solution.eyebrow")}
            title={t("home.solution.title")}
            body={t("home.solution.body")}
          />
          <ol className="mt-8 space-y-5">
            {STEPS.map(({ icon: Icon, title, body }, index) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold">
                    <span className="text-slate-400 dark:text-slate-500">{index + 1}. </span>
                    {t(title)}
                  </h3>
                  <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{t(body)}</p>
                </div>
              </li>
            ))}
          </ol>
          <Link href="/gallery" className={`${linkClass} mt-6 inline-flex items-center gap-1.5 text-sm`}>
            {t("home.solution.viewGallery")}
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
        <div className="min-w-0">
          {pairs.length > 0 ? (
            <Examples pairs={pairs} />
          ) : (
            <figure>
              {/* Same height as the chips above the slider, so the frame does not move when they come. */}
              <div className="mb-3 h-8" aria-hidden="true" />
              <div className="overflow-hidden rounded-xl" style={{ aspectRatio: ROOM_DRAWING_RATIO }}>
                <RoomSplit />
              </div>
              <figcaption className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t("home.solution.drawnNote")}</figcaption>
            </figure>
          )}
        </div>
      </div>
    </section>
  );
}
