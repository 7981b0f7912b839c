/**
 * The paginated list shape of the spec, which is Laravel's length-aware paginator as an API
 * resource collection: `data`, `links` {first, last, prev, next} and `meta` {current_page, from,
 * last_page, links, path, per_page, to, total}. `meta.links` follows Laravel's URL window
 * (three pages on each side of the current one, `...` between the groups).
 */

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface Paginated<T> {
  data: T[];
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PageLink[];
    path: string | null;
    per_page: number;
    to: number | null;
    total: number;
  };
}

export interface PageRequest {
  /** Absolute URL of the list without a query string. */
  readonly path: string;
  /** The other query parameters to carry into every page link, in order. */
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly page: number;
  readonly perPage: number;
}

const ON_EACH_SIDE = 3;
export const PREVIOUS_LABEL = '&laquo; Previous';
export const NEXT_LABEL = 'Next &raquo;';

export function lastPageOf(total: number, perPage: number): number {
  return Math.max(Math.ceil(total / perPage), 1);
}

export function paginate<T>(items: T[], total: number, request: PageRequest): Paginated<T> {
  const { page, perPage } = request;
  const lastPage = lastPageOf(total, perPage);
  const url = (n: number): string => {
    const params = new URLSearchParams(request.query.map(([k, v]): [string, string] => [k, v]));
    params.set('page', String(n));
    return `${request.path}?${params.toString()}`;
  };
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < lastPage ? url(page + 1) : null;
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  const to = from !== null ? from + items.length - 1 : null;

  const links: PageLink[] = [{ url: prev, label: PREVIOUS_LABEL, active: false }];
  for (const element of urlWindow(page, lastPage)) {
    if (element === '...') links.push({ url: null, label: '...', active: false });
    else links.push({ url: url(element), label: String(element), active: element === page });
  }
  links.push({ url: next, label: NEXT_LABEL, active: false });

  return {
    data: items,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      links,
      path: request.path,
      per_page: perPage,
      to,
      total,
    },
  };
}

/** Laravel's UrlWindow: page numbers to show, with '...' between non-adjacent groups. */
export function urlWindow(current: number, lastPage: number): Array<number | '...'> {
  const range = (from: number, to: number): number[] => {
    const pages: number[] = [];
    for (let n = from; n <= to; n++) pages.push(n);
    return pages;
  };
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  const window = ON_EACH_SIDE + 4;
  const start = range(1, 2);
  const finish = range(lastPage - 1, lastPage);
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), '...', ...finish];
  if (current > lastPage - window) {
    return [...start, '...', ...range(lastPage - (window + (ON_EACH_SIDE - 1)), lastPage)];
  }
  return [...start, '...', ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), '...', ...finish];
}
