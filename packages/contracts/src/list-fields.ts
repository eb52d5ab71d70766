import { z } from 'zod';

/**
 * The pieces every list endpoint is made of: how its query string asks for a page and what a page answers. Each
 * takes the list's own message, so a refused query reads in that list's words.
 */

/** A whole number from 1 to `max` in the query string (a page number, a page size); `fallback` when it is absent. */
export const queryCount = (message: string, max: number, fallback: number) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).optional().default(fallback);

/** `?cursor=`: the `nextCursor` of the page before, taken back as it was given; none for the first page. */
export const cursorQuery = (message: string) =>
  z.object({ cursor: z.string({ error: message }).max(200, message).optional() });

/**
 * A page of a list read by cursor: its items, the list's counts (`counts`), and the cursor of the next page
 * (null on the last one).
 */
export const cursorPage = <Item extends z.ZodType, Counts extends z.ZodRawShape>(item: Item, counts: Counts) =>
  z.object({ items: z.array(item), ...counts, nextCursor: z.string().nullable() });
