/** Lower case without accents: "Crème" and "CREME" fold to the same text. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}
