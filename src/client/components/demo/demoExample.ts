/** Which example pair the demo (and the landing page's hero) shows; apart from DemoStage, so that the hero does not fetch the stage. */
import type { DesignStyle } from "../../../shared/styles";
import type { GalleryPair } from "../../lib/renderTypes";

export const DEMO_STYLES: DesignStyle[] = ["modern", "scandinavian", "industrial"];
/** The style the AI demo "chooses": its after picture is Scandinavian. */
export const DRAWN_STYLE: DesignStyle = "scandinavian";

/** The example pair the Preview demo shows: the Scandinavian one when there is one (the spec's three swatches hold it). */
export function demoExample(pairs: readonly GalleryPair[] | undefined): GalleryPair | null {
  if (!pairs?.length) return null;
  return pairs.find((pair) => pair.style === DRAWN_STYLE) ?? pairs.find((pair) => DEMO_STYLES.includes(pair.style)) ?? pairs[0]!;
}
