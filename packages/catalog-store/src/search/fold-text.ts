// Also exported alone as @catalog/store/fold-text: the search terms fold with it on both sides of
// a search worker, which must start without loading the store's index.
/** Lower case without accents: "Crème" and "CREME" fold to the same text. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Text as the full-text index holds it (unicode61, remove_diacritics 2): lower case without
 * accents, but compatibility characters kept as they are. foldText's NFKD would turn the "²" of
 * "2.5mm²" into "2", a token the index never holds, so a product's own spelling found nothing.
 */
export function foldSearchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
