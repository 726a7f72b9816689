/** The before/after pairs the studio made itself (render.gallery's examples), one at a time in the slider. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { GalleryPair } from "../../lib/renderTypes";
import { BeforeAfter } from "../render/BeforeAfter";

/** The example pairs are drawn at 960 × 640. */
const EXAMPLE_SIZE = { width: 960, height: 640 };

export default function LandingExamples({ pairs }: { pairs: GalleryPair[] }) {
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
