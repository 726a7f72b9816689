/**
 * The solution: the three steps, and before/after pairs this studio made itself (render.gallery's
 * examples) in the BeforeAfter slider. Until they arrive (or if there are none) the drawn room
 * stands in, in the same frame, so nothing moves.
 */
import { ArrowRight, Palette, SplitSquareHorizontal, Upload } from "lucide-react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useAfterFirstLoad } from "../../lib/afterFirstLoad";
import { useSharedQuery } from "../../lib/queries";
import { linkClass } from "../ui/buttons";
import { ROOM_DRAWING_RATIO, RoomSplit } from "./RoomDrawing";
import { SectionHeading } from "./SectionHeading";

const STEPS = [
  { icon: Upload, title: "landing.step1Title", body: "landing.step1Body" },
  { icon: Palette, title: "landing.step2Title", body: "landing.step2Body" },
  { icon: SplitSquareHorizontal, title: "landing.step3Title", body: "landing.step3Body" },
] as const;

// The slider is not in the first load: it comes after it, with the examples (usually below the fold).
const Examples = lazy(() => import("./LandingExamples"));

/** The drawn room, in the slider's place until the examples and their slider are here. */
function DrawnExample() {
  const { t } = useTranslation();
  return (
    <figure>
      {/* Same height as the chips above the slider, so the frame does not move when they come. */}
      <div className="mb-3 h-8" aria-hidden="true" />
      <div className="overflow-hidden rounded-xl" style={{ aspectRatio: ROOM_DRAWING_RATIO }}>
        <RoomSplit />
      </div>
      <figcaption className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t("home.solution.drawnNote")}</figcaption>
    </figure>
  );
}

export function SolutionSection() {
  const { t } = useTranslation();
  const gallery = useSharedQuery("render.gallery");
  const loaded = useAfterFirstLoad();
  const pairs = loaded ? (gallery.data?.examples ?? []) : [];
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
                    <span className="text-slate-500 dark:text-slate-400">{index + 1}. </span>
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
            <Suspense fallback={<DrawnExample />}>
              <Examples pairs={pairs} />
            </Suspense>
          ) : (
            <DrawnExample />
          )}
        </div>
      </div>
    </section>
  );
}
