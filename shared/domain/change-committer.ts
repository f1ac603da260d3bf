/**
 * The one write path of every store: all the changes in one transaction, or none. `C` is the
 * change types the area writes (declared in its ports.ts), so its store registers exactly their
 * writers (and bundles no other area's). A leaf: it knows no area's changes; the union of every
 * change is derived in shared/persistence from the one writer list (writers/index.ts).
 */
export interface ChangeCommitter<C extends { readonly type: string }> {
  // A property, not a method: parameters are then checked strictly, so a store whose writers miss
  // one of its port's change types does not compile.
  commit: (changes: C[]) => Promise<void>;
}

/** The changes one store's `commit` takes: what a service of that store may decide to write. */
export type ChangeOf<Store extends { commit: (changes: never[]) => Promise<void> }> = Parameters<
  Store['commit']
>[0][number];
