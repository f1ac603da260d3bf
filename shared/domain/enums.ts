/**
 * A list of every member of a string union, checked both ways by the compiler: an entry that is no
 * member, or a member left out, does not compile (`{ missing: ... }` names the left-out ones). For
 * the enums a view lists (statuses, types) against the domain type's union:
 *
 *   export const WALLET_STATUSES = everyOf<WalletStatus>()(['ACTIVE', 'FROZEN']);
 */
export const everyOf =
  <Union extends string>() =>
  <const List extends readonly Union[]>(
    list: List & ([Union] extends [List[number]] ? unknown : { readonly missing: Exclude<Union, List[number]> }),
  ): List =>
    list;
