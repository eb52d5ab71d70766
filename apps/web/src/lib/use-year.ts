import { useSyncExternalStore } from 'react';

const noChanges = () => () => {};
const thisYear = () => new Date().getFullYear();
const noYear = () => null;

/**
 * The visitor's year, for a copyright line; null while React adopts a page drawn at build. The build's year in the
 * drawn markup would differ from the visit's from 1 January on, and React, finding the page not what it draws,
 * would throw the page away with what the visitor had typed in it (issue 30). So a drawn page carries no year and
 * shows the visitor's once its app runs; a screen the app draws itself shows it at once (docs/decisions.md "Web").
 */
export function useYear(): number | null {
  return useSyncExternalStore(noChanges, thisYear, noYear);
}

/** "© 2027 Terrafund. …", or "© Terrafund. …" where the year is not known yet. */
export const copyright = (year: number | null, rest: string) => `© ${year === null ? '' : `${year} `}Terrafund. ${rest}`;
