/** A custom style as a render's snapshot keeps it (decision 101), for engine tests. */
import type { StyleSnapshot } from "../../src/shared/custom-styles";

export function customStyleSnapshot(overrides: Partial<StyleSnapshot> = {}): StyleSnapshot {
  return {
    id: "cs_4xQ9mT2vL7pR1sK8wZ3nB6yD",
    name: "Casa Azul",
    description: "cobalt blue tiled walls, whitewashed plaster, terracotta floors, hand-painted Talavera ceramics",
    avoid: "chrome, glossy plastic",
    palette: ["#1f4e9c", "#f4efe6", "#c4622d"],
    tone: "bold",
    referenceUsed: false,
    ...overrides,
  };
}
