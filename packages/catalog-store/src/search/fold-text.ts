// Also exported alone as @catalog/store/fold-text: the search terms fold with it on both sides of
// a search worker, which must start without loading the store's index.
/** Lower case without accents: "Crème" and "CREME" fold to the same text. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
