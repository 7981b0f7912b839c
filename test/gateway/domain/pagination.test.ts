/**
 * The paginated list shape (Laravel's length-aware paginator as an API resource collection) and
 * Laravel's URL window of page links.
 */
import { describe, expect, it } from 'vitest';
import {
  lastPageOf,
  NEXT_LABEL,
  type PageRequest,
  PREVIOUS_LABEL,
  paginate,
  urlWindow,
} from '../../../gateway/domain/pagination.js';

const PATH = 'https://pay.example.am/api/v1/payments';

function request(page: number, perPage: number, query: PageRequest['query'] = []): PageRequest {
  return { path: PATH, query, page, perPage };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('lastPageOf', () => {
  it.each([
    [0, 25, 1],
    [1, 25, 1],
    [25, 25, 1],
    [26, 25, 2],
    [30, 10, 3],
    [31, 10, 4],
    [100, 1, 100],
  ])('%i items at %i per page make %i pages', (total, perPage, pages) => {
    expect(lastPageOf(total, perPage)).toBe(pages);
  });
});

describe('paginate', () => {
  it('answers an empty first page like Laravel', () => {
    const url1 = `${PATH}?page=1`;
    expect(paginate([], 0, request(1, 25))).toEqual({
      data: [],
      links: { first: url1, last: url1, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: '&laquo; Previous', active: false },
          { url: url1, label: '1', active: true },
          { url: null, label: 'Next &raquo;', active: false },
        ],
        path: PATH,
        per_page: 25,
        to: null,
        total: 0,
      },
    });
  });

  it('uses the labels of Laravel', () => {
    expect(PREVIOUS_LABEL).toBe('&laquo; Previous');
    expect(NEXT_LABEL).toBe('Next &raquo;');
  });

  it('keeps the keys in the order Laravel writes them', () => {
    const page = paginate(['a'], 1, request(1, 25));
    expect(Object.keys(page)).toEqual(['data', 'links', 'meta']);
    expect(Object.keys(page.links)).toEqual(['first', 'last', 'prev', 'next']);
    expect(Object.keys(page.meta)).toEqual([
      'current_page',
      'from',
      'last_page',
      'links',
      'path',
      'per_page',
      'to',
      'total',
    ]);
    expect(Object.keys(page.meta.links[0] ?? {})).toEqual(['url', 'label', 'active']);
  });

  it('describes a middle page: from, to, prev, next and the active link', () => {
    const page = paginate(['k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't'], 30, request(2, 10));
    expect(page.data).toHaveLength(10);
    expect(page.links).toEqual({
      first: `${PATH}?page=1`,
      last: `${PATH}?page=3`,
      prev: `${PATH}?page=1`,
      next: `${PATH}?page=3`,
    });
    expect(page.meta).toMatchObject({ current_page: 2, from: 11, to: 20, last_page: 3, per_page: 10, total: 30 });
    expect(page.meta.links).toEqual([
      { url: `${PATH}?page=1`, label: '&laquo; Previous', active: false },
      { url: `${PATH}?page=1`, label: '1', active: false },
      { url: `${PATH}?page=2`, label: '2', active: true },
      { url: `${PATH}?page=3`, label: '3', active: false },
      { url: `${PATH}?page=3`, label: 'Next &raquo;', active: false },
    ]);
  });

  it('counts to from the items on a short last page', () => {
    const page = paginate(['x', 'y'], 22, request(3, 10));
    expect(page.meta).toMatchObject({ from: 21, to: 22, last_page: 3 });
    expect(page.links.next).toBeNull();
    expect(page.links.prev).toBe(`${PATH}?page=2`);
  });

  it('answers a page beyond the last with no items, a prev link and no active page', () => {
    const page = paginate([], 30, request(7, 10));
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 7, from: null, to: null, last_page: 3, total: 30 });
    expect(page.links).toEqual({
      first: `${PATH}?page=1`,
      last: `${PATH}?page=3`,
      prev: `${PATH}?page=6`,
      next: null,
    });
    expect(page.meta.links.map((l) => l.label)).toEqual(['&laquo; Previous', '1', '2', '3', 'Next &raquo;']);
    expect(page.meta.links.some((l) => l.active)).toBe(false);
  });

  it('carries the other query parameters into every link, before page', () => {
    const page = paginate(
      ['a'],
      3,
      request(2, 1, [
        ['status', 'pending'],
        ['per_page', '1'],
      ]),
    );
    expect(page.links.first).toBe(`${PATH}?status=pending&per_page=1&page=1`);
    expect(page.links.next).toBe(`${PATH}?status=pending&per_page=1&page=3`);
    for (const link of page.meta.links) {
      if (link.url === null) continue;
      const url = new URL(link.url);
      expect(url.searchParams.get('status')).toBe('pending');
      expect(url.searchParams.getAll('page')).toHaveLength(1);
    }
  });

  it('encodes carried values so that they read back unchanged', () => {
    const orderId = 'a/b c?#&=+%';
    const page = paginate([], 0, request(1, 25, [['order_id', orderId]]));
    const first = new URL(page.links.first as string);
    expect(first.origin + first.pathname).toBe(PATH);
    expect(first.searchParams.get('order_id')).toBe(orderId);
    expect(first.hash).toBe('');
  });

  it('overrides a page parameter left among the carried ones', () => {
    const page = paginate([], 10, request(1, 5, [['page', '9']]));
    expect(page.links.next).toBe(`${PATH}?page=2`);
  });

  it('puts the URL window between the prev and next links', () => {
    const page = paginate(['a'], 20, request(10, 1));
    expect(page.meta.links.map((l) => l.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '...',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      '13',
      '...',
      '19',
      '20',
      'Next &raquo;',
    ]);
    for (const gap of page.meta.links.filter((l) => l.label === '...')) {
      expect(gap).toEqual({ url: null, label: '...', active: false });
    }
    expect(page.meta.links.find((l) => l.active)).toEqual({ url: `${PATH}?page=10`, label: '10', active: true });
  });
});

describe("urlWindow (Laravel's UrlWindow, three pages on each side)", () => {
  it('lists every page when there are fewer than 14', () => {
    expect(urlWindow(1, 1)).toEqual([1]);
    expect(urlWindow(1, 3)).toEqual([1, 2, 3]);
    expect(urlWindow(7, 13)).toEqual(range(1, 13));
    expect(urlWindow(13, 13)).toEqual(range(1, 13));
    expect(urlWindow(20, 13)).toEqual(range(1, 13));
  });

  it('shows the first ten pages and the last two near the start', () => {
    expect(urlWindow(1, 14)).toEqual([...range(1, 10), '...', 13, 14]);
    expect(urlWindow(1, 50)).toEqual([...range(1, 10), '...', 49, 50]);
    expect(urlWindow(7, 50)).toEqual([...range(1, 10), '...', 49, 50]);
  });

  it('slides with three pages on each side in the middle', () => {
    expect(urlWindow(8, 50)).toEqual([1, 2, '...', ...range(5, 11), '...', 49, 50]);
    expect(urlWindow(25, 50)).toEqual([1, 2, '...', ...range(22, 28), '...', 49, 50]);
    expect(urlWindow(43, 50)).toEqual([1, 2, '...', ...range(40, 46), '...', 49, 50]);
  });

  it('shows the first two pages and the last nine near the end', () => {
    expect(urlWindow(44, 50)).toEqual([1, 2, '...', ...range(41, 50)]);
    expect(urlWindow(50, 50)).toEqual([1, 2, '...', ...range(41, 50)]);
    expect(urlWindow(8, 14)).toEqual([1, 2, '...', ...range(5, 14)]);
    expect(urlWindow(14, 14)).toEqual([1, 2, '...', ...range(5, 14)]);
  });

  it('treats a page beyond the last as near the end', () => {
    expect(urlWindow(99, 50)).toEqual([1, 2, '...', ...range(41, 50)]);
  });

  it('never repeats a page and keeps them ascending', () => {
    for (let last = 1; last <= 40; last++) {
      for (let current = 1; current <= last; current++) {
        const pages = urlWindow(current, last).filter((e): e is number => e !== '...');
        expect(pages).toContain(current);
        expect(pages).toContain(1);
        expect(pages).toContain(last);
        expect([...pages].sort((a, b) => a - b)).toEqual(pages);
        expect(new Set(pages).size).toBe(pages.length);
      }
    }
  });
});
