/**
 * The studio's version history as rows to show: the tree of render.versions (the photo, its renders,
 * edits under what they were made from) walked depth first, oldest child first, each row with its
 * depth, its number (v1 is the photo) and the number of the version it came from. The numbers are
 * the server's, given once when each version was made: the row's place never changes them (an
 * edit of v2 made after v3 is v4, shown under v2). Pure, so the order and the branching are tested alone.
 */
import type { VersionNode } from "../../shared/edits";

export interface VersionRow {
  node: VersionNode;
  depth: number;
  /** The version's number (1 for the photo), as the server gave it when the version was made. */
  number: number;
  /** The number of the version it was made from; null for the photo and a version hung at the top. */
  parentNumber: number | null;
  /** Whether a later row at the same depth shares this row's parent (a branch continues below). */
  hasNextSibling: boolean;
}

export function versionRows(nodes: readonly VersionNode[]): VersionRow[] {
  const ids = new Set(nodes.map((node) => node.id));
  const children = new Map<string | null, VersionNode[]>();
  for (const node of nodes) {
    // A parent missing from the list (beyond the list's limit) hangs the node at the top.
    const parent = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));

  const rows: VersionRow[] = [];
  const visit = (parent: VersionNode | null, depth: number) => {
    const list = children.get(parent?.id ?? null) ?? [];
    list.forEach((node, index) => {
      rows.push({ node, depth, number: node.number, parentNumber: parent?.number ?? null, hasNextSibling: index < list.length - 1 });
      visit(node, depth + 1);
    });
  };
  visit(null, 0);
  return rows;
}

/** A version that can be shown, compared and edited: finished, with its picture. */
export function isFinished(node: VersionNode): node is VersionNode & { picture: string; thumb: string; width: number; height: number } {
  return node.status === "succeeded" && node.picture !== null && node.width !== null && node.height !== null;
}

/**
 * The version to edit: the one asked for if it is finished; while it is still being made, the
 * finished version it comes from; otherwise the photo.
 */
export function startingVersion(nodes: readonly VersionNode[], wanted: string | null): VersionNode | undefined {
  const asked = wanted ? nodes.find((node) => node.id === wanted) : undefined;
  if (asked && isFinished(asked)) return asked;
  if (asked) return finishedAncestor(nodes, asked.id);
  return nodes.find((node) => node.kind === "photo");
}

/** The nearest finished version above `id` (where to go when a version is deleted). */
export function finishedAncestor(nodes: readonly VersionNode[], id: string): VersionNode | undefined {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  let current = byId.get(id);
  while (current?.parentId) {
    current = byId.get(current.parentId);
    if (current && isFinished(current)) return current;
  }
  return nodes.find((node) => node.kind === "photo");
}
